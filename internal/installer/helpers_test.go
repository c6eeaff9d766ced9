package installer

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/weir-streams/weir/internal/streamtest"
)

// Plugin binaries built once for the package's tests.
var (
	examplePlugin string // examples/plugins/urlrequest
	stdoutPlugin  string // testdata/stdoutplugin: writes to stdout before the handshake
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "weir-plugins")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	examplePlugin = filepath.Join(dir, "urlrequest")
	stdoutPlugin = filepath.Join(dir, "stdoutplugin")
	root := streamtest.Root()
	for bin, pkg := range map[string]string{
		examplePlugin: "./examples/plugins/urlrequest/cmd/urlrequest",
		stdoutPlugin:  "./internal/installer/testdata/stdoutplugin",
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

// newTestRepo makes a repository with a fresh signing key.
func newTestRepo(t *testing.T) *testRepo {
	t.Helper()
	dir := t.TempDir()
	prefix := filepath.Join(dir, "publisher")
	pubText, err := GenerateKey(prefix)
	if err != nil {
		t.Fatal(err)
	}
	pub, err := ParsePublicKey(pubText)
	if err != nil {
		t.Fatal(err)
	}
	r := &testRepo{dir: filepath.Join(dir, "repo"), keyFile: prefix + ".key", pub: pub}
	return r
}

// publish packs bin as c for this machine, signed with the repository key
// unless unsigned.
func (r *testRepo) publish(t *testing.T, c Coordinates, bin string, unsigned bool) string {
	t.Helper()
	o := PublishOptions{Dir: r.dir, Binary: bin, OS: runtime.GOOS, Arch: runtime.GOARCH}
	if !unsigned {
		o.Key = r.keyFile
	}
	p, err := Publish(c, o)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// fileURL is the repository as a file:// URL.
func (r *testRepo) fileURL() string { return "file://" + filepath.ToSlash(r.dir) }

// serve serves the repository over HTTP on 127.0.0.1 and returns its URL.
func (r *testRepo) serve(t *testing.T) string {
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
func (r *testRepo) options(t *testing.T, repos ...string) Options {
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
func copyFile(t *testing.T, src, dst string) {
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
