package installer

import (
	"context"
	"crypto/ed25519"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/streamtest"
)

// Plugin binaries built once for the package's tests.
var (
	examplePlugin string // examples/plugins/urlrequest
	stdoutPlugin  string // testdata/stdoutplugin: writes to stdout before the handshake
	hangPlugin    string // testdata/hangplugin: never answers a batch holding its marker
)

func TestMain(m *testing.M) {
	flag.Parse()
	dir, err := os.MkdirTemp("", "weir-plugins")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	tmpRoot = dir
	publisherKey = filepath.Join(dir, "publisher.key")
	if publisherPub, err = GenerateKey(filepath.Join(dir, "publisher")); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	examplePlugin = filepath.Join(dir, "urlrequest")
	stdoutPlugin = filepath.Join(dir, "stdoutplugin")
	hangPlugin = filepath.Join(dir, "hangplugin")
	root := streamtest.Root()
	if f := flag.Lookup("test.fuzz"); f != nil && f.Value.String() != "" {
		// A fuzz run (the coordinator and each worker run TestMain) needs
		// no plugin: building three would eat its time.
		code := m.Run()
		os.RemoveAll(dir)
		os.Exit(code)
	}
	for bin, pkg := range map[string]string{
		examplePlugin: "./examples/plugins/urlrequest/cmd/urlrequest",
		stdoutPlugin:  "./internal/installer/testdata/stdoutplugin",
		hangPlugin:    "./internal/installer/testdata/hangplugin",
	} {
		build := exec.Command("go", "build", "-ldflags=-s -w", "-o", bin, pkg)
		build.Dir = root
		build.Stdout, build.Stderr = os.Stderr, os.Stderr
		if err := build.Run(); err != nil {
			fmt.Fprintln(os.Stderr, "build plugin:", err)
			os.Exit(1)
		}
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

const (
	testGroup    = "com.example.weir"
	testArtifact = "urlrequest"
	testComp     = "com.example.processor.ParseUrlRequest"
)

var testCoords = Coordinates{Group: testGroup, Artifact: testArtifact, Version: "1.0.0"}

// testRepo is a Maven-layout directory repository made by a test, with the
// key pair that signs it.
type testRepo struct {
	dir     string
	keyFile string
	pub     ed25519.PublicKey
}

// The publisher key of every test repository, made in TestMain, and the
// artifacts published once per binary and version: packing a plugin
// (gzip of megabytes) is what takes time under the race detector, so each
// test copies a published artifact instead of packing it again.
var (
	publisherKey, publisherPub string
	tmpRoot                    string
	templatesMu                sync.Mutex
	templates                  = map[string]string{}
)

// newTestRepo makes an empty repository signed by the test publisher.
func newTestRepo(t testing.TB) *testRepo {
	t.Helper()
	pub, err := ParsePublicKey(publisherPub)
	if err != nil {
		t.Fatal(err)
	}
	return &testRepo{dir: filepath.Join(t.TempDir(), "repo"), keyFile: publisherKey, pub: pub}
}

// otherKey returns a trusted key of another publisher.
func otherKey(t testing.TB) []TrustedKey {
	t.Helper()
	text, err := GenerateKey(filepath.Join(t.TempDir(), "other"))
	if err != nil {
		t.Fatal(err)
	}
	pub, err := ParsePublicKey(text)
	if err != nil {
		t.Fatal(err)
	}
	return []TrustedKey{{Name: "other", key: pub}}
}

// publish adds bin as c for this machine to the repository, signed by the
// test publisher unless unsigned: the files Publish wrote once for bin and
// c are copied, and the version is added to maven-metadata.xml.
func (r *testRepo) publish(t testing.TB, c Coordinates, bin string, unsigned bool) string {
	t.Helper()
	templatesMu.Lock()
	// The archive does not depend on the version (the executable is named
	// after the artifact), so one is packed per binary and copied under
	// each version's name.
	tmpl, ok := templates[bin]
	if !ok {
		var err error
		if tmpl, err = os.MkdirTemp(tmpRoot, "template"); err == nil {
			_, err = Publish(testCoords, PublishOptions{Dir: tmpl, Key: publisherKey, Binary: bin, OS: runtime.GOOS, Arch: runtime.GOARCH})
		}
		if err != nil {
			templatesMu.Unlock()
			t.Fatal(err)
		}
		templates[bin] = tmpl
	}
	templatesMu.Unlock()
	src := filepath.Join(tmpl, filepath.FromSlash(testCoords.ArchivePath(runtime.GOOS, runtime.GOARCH)))
	dst := filepath.Join(r.dir, filepath.FromSlash(c.ArchivePath(runtime.GOOS, runtime.GOARCH)))
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, ext := range []string{"", ".sha256"} {
		copyFile(t, src+ext, dst+ext)
	}
	if !unsigned {
		// The signature covers the coordinates: each version is signed
		// as itself.
		if err := SignFile(r.keyFile, c, dst); err != nil {
			t.Fatal(err)
		}
	}
	metaPath := filepath.Join(r.dir, filepath.FromSlash(c.MetadataPath()))
	m := &Metadata{}
	if data, err := os.ReadFile(metaPath); err == nil {
		if m, err = ParseMetadata(data); err != nil {
			t.Fatal(err)
		}
	}
	m.Add(c, time.Now())
	data, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(metaPath, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}

// fileURL is the repository as a file:// URL.
func (r *testRepo) fileURL() string { return "file://" + filepath.ToSlash(r.dir) }

// serve serves the repository over HTTP on 127.0.0.1 and returns its URL.
func (r *testRepo) serve(t testing.TB) string {
	t.Helper()
	srv := httptest.NewServer(http.FileServer(http.Dir(r.dir)))
	t.Cleanup(srv.Close)
	return srv.URL + "/"
}

// trusted returns the repository's public key as a trusted key.
func (r *testRepo) trusted() []TrustedKey {
	return []TrustedKey{{Name: "test-publisher", key: r.pub}}
}

// options returns installer options for a fresh home and the given
// repositories, trusting the repository key.
func (r *testRepo) options(t testing.TB, repos ...string) Options {
	return Options{Home: t.TempDir(), Repositories: repos, TrustedKeys: r.trusted(), Logger: testLogger(t), Version: "test"}
}

func testLogger(t testing.TB) *slog.Logger { return streamtest.Logger(t) }

// mustInstall installs and fails the test on error.
func mustInstall(t *testing.T, o Options, c Coordinates) *Entry {
	t.Helper()
	e, err := Install(context.Background(), o, c)
	if err != nil {
		t.Fatalf("install %s: %v", c, err)
	}
	return e
}

// wantErr fails unless err is non-nil and contains every fragment.
func wantErr(t *testing.T, err error, fragments ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error; want one containing %q", fragments)
	}
	for _, f := range fragments {
		if !strings.Contains(err.Error(), f) {
			t.Fatalf("error %q does not contain %q", err, f)
		}
	}
}

// copyFile copies a file (to build altered binaries).
func copyFile(t testing.TB, src, dst string) {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, data, 0o755); err != nil {
		t.Fatal(err)
	}
}

func runtimeOS() string   { return runtime.GOOS }
func runtimeArch() string { return runtime.GOARCH }
