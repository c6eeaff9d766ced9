package installer

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/plugins/all"
)

// TestInstallListRemove installs the example plugin from a signed
// repository over HTTP and as file://, lists it and removes it.
func TestInstallListRemove(t *testing.T) {
	repo := newTestRepo(t)
	repo.publish(t, testCoords, examplePlugin, false)
	for name, url := range map[string]string{"http": repo.serve(t), "file": repo.fileURL()} {
		t.Run(name, func(t *testing.T) {
			o := repo.options(t, url)
			o.Registry = all.NewRegistry()
			e := mustInstall(t, o, testCoords)
			if e.SignedBy != "test-publisher" || len(e.Components) != 1 || e.Components[0].Name != testComp {
				t.Fatalf("entry: signed by %q, components %+v", e.SignedBy, e.Components)
			}
			lock, err := ReadLock(o.Home)
			if err != nil {
				t.Fatal(err)
			}
			if len(lock.Plugins) != 1 {
				t.Fatalf("lock has %d plugins", len(lock.Plugins))
			}
			got := lock.Plugins[0]
			archive, err := os.ReadFile(filepath.Join(repo.dir, filepath.FromSlash(testCoords.ArchivePath(got.OS, got.Arch))))
			if err != nil {
				t.Fatal(err)
			}
			bin, err := os.ReadFile(filepath.Join(o.Home, got.Binary))
			if err != nil {
				t.Fatal(err)
			}
			if got.ArchiveSHA256 != SumHex(archive) || got.BinarySHA256 != SumHex(bin) || got.Coordinates() != testCoords {
				t.Fatalf("lock entry %+v does not match the archive and binary", got)
			}

			// A second install is refused, as LogIsland refuses it.
			_, err = Install(context.Background(), o, testCoords)
			wantErr(t, err, "already installed", "remove it first")

			var list strings.Builder
			if err := List(&list, o); err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{"com.example.weir:urlrequest:1.0.0", testComp, got.BinarySHA256, "signed by test-publisher",
				"io.github.weir-streams:weir-processor-useragent:test  bundled", "pkg.processor.useragent.ParseUserAgent"} {
				if !strings.Contains(list.String(), want) {
					t.Errorf("list lacks %q:\n%s", want, list.String())
				}
			}

			if _, err := Remove(context.Background(), o, Coordinates{Group: testGroup, Artifact: testArtifact}); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(filepath.Join(o.Home, got.Binary)); !errors.Is(err, os.ErrNotExist) {
				t.Fatalf("binary still there after remove: %v", err)
			}
			if lock, _ := ReadLock(o.Home); len(lock.Plugins) != 0 {
				t.Fatalf("lock still lists %d plugins", len(lock.Plugins))
			}
			_, err = Remove(context.Background(), o, testCoords)
			wantErr(t, err, "is not installed")
		})
	}
}

// TestInstallLatest installs the highest version when none is given.
func TestInstallLatest(t *testing.T) {
	repo := newTestRepo(t)
	for _, v := range []string{"1.9.0", "1.10.0", "1.2.0"} {
		c := testCoords
		c.Version = v
		repo.publish(t, c, examplePlugin, false)
	}
	e := mustInstall(t, repo.options(t, repo.fileURL()), Coordinates{Group: testGroup, Artifact: testArtifact})
	if e.Version != "1.10.0" {
		t.Fatalf("installed %s, want 1.10.0", e.Version)
	}
}

// TestInstallRefused covers every refusal: nothing is installed and the
// error says why.
func TestInstallRefused(t *testing.T) {
	ctx := context.Background()
	archiveOf := func(r *testRepo) string {
		return filepath.Join(r.dir, filepath.FromSlash(testCoords.ArchivePath(runtimeOS(), runtimeArch())))
	}
	cases := []struct {
		name  string
		setup func(t *testing.T) (Options, Coordinates)
		want  []string
	}{
		{"sha256 mismatch", func(t *testing.T) (Options, Coordinates) {
			r := newTestRepo(t)
			r.publish(t, testCoords, examplePlugin, false)
			// The archive changes after its checksum and signature were made.
			appendTo(t, archiveOf(r), "tampered")
			return r.options(t, r.serve(t)), testCoords
		}, []string{"sha256 mismatch", "refused"}},
		{"signature by an untrusted key", func(t *testing.T) (Options, Coordinates) {
			r := newTestRepo(t)
			r.publish(t, testCoords, examplePlugin, false)
			o := r.options(t, r.serve(t))
			o.TrustedKeys = otherKey(t) // another publisher's key
			return o, testCoords
		}, []string{"signature check failed", "does not verify", "--allow-unsigned"}},
		{"signature of other bytes", func(t *testing.T) (Options, Coordinates) {
			r := newTestRepo(t)
			r.publish(t, testCoords, examplePlugin, false)
			// Another file, named as the archive, signed as the archive.
			other := filepath.Join(t.TempDir(), filepath.Base(archiveOf(r)))
			copyFile(t, examplePlugin, other)
			if err := SignFile(r.keyFile, testCoords, other); err != nil {
				t.Fatal(err)
			}
			copyFile(t, other+".sig", archiveOf(r)+".sig")
			return r.options(t, r.fileURL()), testCoords
		}, []string{"signature check failed", "does not verify"}},
		{"unsigned", func(t *testing.T) (Options, Coordinates) {
			r := newTestRepo(t)
			r.publish(t, testCoords, examplePlugin, true)
			return r.options(t, r.serve(t)), testCoords
		}, []string{"not signed", "refused"}},
		{"unknown version", func(t *testing.T) (Options, Coordinates) {
			r := newTestRepo(t)
			r.publish(t, testCoords, examplePlugin, false)
			c := testCoords
			c.Version = "9.9.9"
			return r.options(t, r.serve(t)), c
		}, []string{`unknown version "9.9.9"`, "available: 1.0.0"}},
		{"404", func(t *testing.T) (Options, Coordinates) {
			r := newTestRepo(t)
			r.publish(t, testCoords, examplePlugin, false)
			return r.options(t, r.serve(t)), Coordinates{Group: testGroup, Artifact: "nosuchplugin", Version: "1.0.0"}
		}, []string{"no artifact com.example.weir:nosuchplugin", "not found"}},
		{"no build for this platform", func(t *testing.T) (Options, Coordinates) {
			r := newTestRepo(t)
			r.publish(t, testCoords, examplePlugin, false)
			o := r.options(t, r.serve(t))
			o.OS = "plan9"
			return o, testCoords
		}, []string{"has no build for plan9/"}},
		{"repository down", func(t *testing.T) (Options, Coordinates) {
			r := newTestRepo(t)
			return r.options(t, "http://"+closedAddr(t)+"/repo"), testCoords
		}, []string{"unreachable", "connection refused"}},
		{"plugin writes to stdout before the handshake", func(t *testing.T) (Options, Coordinates) {
			r := newTestRepo(t)
			r.publish(t, testCoords, stdoutPlugin, false)
			return r.options(t, r.fileURL()), testCoords
		}, []string{"did not answer the handshake", "standard output"}},
		{"name of a built-in component", func(t *testing.T) (Options, Coordinates) {
			r := newTestRepo(t)
			r.publish(t, testCoords, examplePlugin, false)
			o := r.options(t, r.fileURL())
			o.Registry = component.NewRegistry()
			o.Registry.Register(component.Spec{Name: testComp, Kind: component.KindProcessor,
				NewProcessor: func(component.Config, component.Env) (component.Processor, error) { return nil, nil }})
			return o, testCoords
		}, []string{"has the name of a component Weir already has"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o, c := tc.setup(t)
			_, err := Install(ctx, o, c)
			wantErr(t, err, tc.want...)
			if lock, err := ReadLock(o.Home); err != nil || len(lock.Plugins) != 0 {
				t.Fatalf("lock after a refusal: %+v, %v", lock, err)
			}
			if left, _ := filepath.Glob(filepath.Join(o.Home, pluginsDir, "*")); len(left) != 0 {
				t.Fatalf("files left after a refusal: %v", left)
			}
		})
	}
}

// TestAllowUnsigned installs an unsigned artifact only when asked, and
// records that it is not signed.
func TestAllowUnsigned(t *testing.T) {
	r := newTestRepo(t)
	r.publish(t, testCoords, examplePlugin, true)
	o := r.options(t, r.serve(t))
	o.AllowUnsigned = true
	if e := mustInstall(t, o, testCoords); e.SignedBy != "" {
		t.Fatalf("signed by %q", e.SignedBy)
	}
}

// TestSecondRepository: a repository that is down or lacks the artifact
// is skipped for the next one.
func TestSecondRepository(t *testing.T) {
	r := newTestRepo(t)
	r.publish(t, testCoords, examplePlugin, false)
	empty := newTestRepo(t)
	if err := os.MkdirAll(empty.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	o := r.options(t, "http://"+closedAddr(t)+"/", empty.fileURL(), r.serve(t))
	e := mustInstall(t, o, testCoords)
	if !strings.HasPrefix(e.Repository, "http://127.0.0.1") {
		t.Fatalf("installed from %s", e.Repository)
	}
}

// TestBundled: the spec's optional components that Weir builds in are
// answered "bundled", under Weir's coordinates and LogIsland's.
func TestBundled(t *testing.T) {
	o := Options{Home: t.TempDir(), Version: "test"}
	for _, s := range []string{"io.github.weir-streams:weir-processor-useragent:1.0", "com.hurence.logisland:logisland-processor-enrichment:1.4.0"} {
		c, err := ParseCoordinates(s, false)
		if err != nil {
			t.Fatal(err)
		}
		_, err = Install(context.Background(), o, c)
		var be *BundledError
		if !errors.As(err, &be) {
			t.Fatalf("%s: %v, want a BundledError", s, err)
		}
		wantErr(t, err, "is bundled with Weir")
		_, err = Remove(context.Background(), o, c)
		wantErr(t, err, "bundled", "cannot be removed")
	}
}

func TestParseCoordinates(t *testing.T) {
	for _, bad := range []string{"a", "a:b:c:d", "a:../b:1", "a:b:..", "a b:c:1", ":b:1", "a:b:1/2"} {
		if _, err := ParseCoordinates(bad, false); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	c, err := ParseCoordinates("com.example:x-y:1.0.0-rc1", true)
	if err != nil || c.ArchivePath("linux", "amd64") != "com/example/x-y/1.0.0-rc1/x-y-1.0.0-rc1-linux-amd64.tar.gz" {
		t.Fatalf("%+v %v %s", c, err, c.ArchivePath("linux", "amd64"))
	}
	if _, err := ParseCoordinates("a:b", true); err == nil {
		t.Error("missing version accepted")
	}
}

// closedAddr returns a 127.0.0.1 address on which nothing listens.
func closedAddr(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

func appendTo(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
