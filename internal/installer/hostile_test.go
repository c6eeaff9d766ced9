package installer

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// hostileRepo is a repository server on 127.0.0.1 that answers every
// maven-metadata.xml with meta and every archive, checksum and signature
// request with the given files, whatever the path: a repository under an
// attacker's control.
func hostileRepo(t *testing.T, meta string, archive, sig []byte) (string, *[]string) {
	t.Helper()
	var paths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		paths = append(paths, r.URL.Path)
		switch p := r.URL.Path; {
		case strings.HasSuffix(p, "/maven-metadata.xml"):
			_, _ = w.Write([]byte(meta))
		case strings.HasSuffix(p, ".tar.gz"):
			_, _ = w.Write(archive)
		case strings.HasSuffix(p, ".tar.gz.sha256"):
			_, _ = w.Write([]byte(SumHex(archive) + "\n"))
		case strings.HasSuffix(p, ".tar.gz.sig"):
			_, _ = w.Write(sig)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/", &paths
}

// publishedArchive returns the archive of the example plugin, as Publish
// packed it.
func publishedArchive(t *testing.T) []byte {
	t.Helper()
	r := newTestRepo(t)
	dst := r.publish(t, testCoords, examplePlugin, false)
	data, err := os.ReadFile(dst)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// listTree returns every path under dir, relative to it.
func listTree(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.Walk(dir, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out = append(out, rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestHostileRepositoryRelease is the attack of a repository whose
// maven-metadata.xml names a release that climbs out of the plugin home,
// with an archive validly signed for those very coordinates: the install
// is refused before anything is fetched or written, and the victim
// directory beside the home keeps its file.
func TestHostileRepositoryRelease(t *testing.T) {
	top := t.TempDir()
	home := filepath.Join(top, "home")
	victim := filepath.Join(top, "victim9")
	if err := os.MkdirAll(victim, 0o755); err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(victim, "keep")
	if err := os.WriteFile(marker, []byte("mine"), 0o600); err != nil {
		t.Fatal(err)
	}
	// From home/plugins/com/example/weir/urlrequest/ up to top, then down.
	release := strings.Repeat("../", 6) + "victim9"
	evil := Coordinates{Group: testGroup, Artifact: testArtifact, Version: release}
	archive := publishedArchive(t)
	priv, err := parsePrivateKey(publisherKey)
	if err != nil {
		t.Fatal(err)
	}
	sig := Sign(priv, signedStatement(evil, runtime.GOOS, runtime.GOARCH, SumHex(archive)))
	meta := `<metadata><groupId>` + testGroup + `</groupId><artifactId>` + testArtifact + `</artifactId><versioning>` +
		`<release>` + release + `</release><latest>` + release + `</latest><versions><version>` + release + `</version></versions></versioning></metadata>`
	url, paths := hostileRepo(t, meta, archive, sig)

	r := newTestRepo(t)
	o := r.options(t, url)
	o.Home = home
	_, err = Install(context.Background(), o, Coordinates{Group: testGroup, Artifact: testArtifact})
	wantErr(t, err, "its release", "version")
	if data, err := os.ReadFile(marker); err != nil || string(data) != "mine" {
		t.Fatalf("the victim's file: %q, %v", data, err)
	}
	for _, p := range listTree(t, top) {
		if !strings.HasPrefix(p, "home") && !strings.HasPrefix(p, "victim9") && p != "." {
			t.Errorf("written outside the home: %s", p)
		}
	}
	if left := listTree(t, filepath.Join(home, pluginsDir)); len(left) != 1 {
		t.Errorf("the plugin home holds %v", left)
	}
	for _, p := range *paths {
		if strings.HasSuffix(p, ".tar.gz") {
			t.Errorf("the archive was fetched at %s", p)
		}
	}

	// The same release given on the command line is refused as well.
	_, err = ParseCoordinates(evil.String(), true)
	wantErr(t, err, "version")
}

// TestHostileMetadataOtherArtifact: metadata that names another artifact
// is refused, not taken for the one asked.
func TestHostileMetadataOtherArtifact(t *testing.T) {
	meta := `<metadata><groupId>org.other</groupId><artifactId>thing</artifactId><versioning><release>1.0.0</release><versions><version>1.0.0</version></versions></versioning></metadata>`
	url, _ := hostileRepo(t, meta, []byte("x"), nil)
	r := newTestRepo(t)
	o := r.options(t, url)
	_, err := Install(context.Background(), o, Coordinates{Group: testGroup, Artifact: testArtifact})
	wantErr(t, err, "names another artifact")
}

// TestSignatureCoversCoordinates: a signed archive served under another
// version or for another platform does not verify.
func TestSignatureCoversCoordinates(t *testing.T) {
	r := newTestRepo(t)
	src := r.publish(t, testCoords, examplePlugin, false)
	moved := func(t *testing.T, c Coordinates, goos string) {
		t.Helper()
		dst := filepath.Join(r.dir, filepath.FromSlash(c.ArchivePath(goos, runtime.GOARCH)))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		for _, ext := range []string{"", ".sha256", ".sig"} {
			copyFile(t, src+ext, dst+ext)
		}
	}
	v2 := testCoords
	v2.Version = "2.0.0"
	r.publish(t, v2, examplePlugin, true) // lists 2.0.0 in the metadata
	moved(t, v2, runtime.GOOS)            // the 1.0.0 archive and its signature, as 2.0.0
	o := r.options(t, r.fileURL())
	_, err := Install(context.Background(), o, v2)
	wantErr(t, err, "signature check failed", "does not verify")

	other := "plan9"
	if runtime.GOOS == other {
		other = "linux"
	}
	moved(t, testCoords, other)
	o = r.options(t, r.fileURL())
	o.OS = other
	_, err = Install(context.Background(), o, testCoords)
	wantErr(t, err, "signature check failed", "does not verify")

	// The genuine one installs.
	mustInstall(t, r.options(t, r.fileURL()), testCoords)
}

// TestHostileLockFile: a lock file edited to point outside the plugin home
// is refused as a whole, and a remove deletes nothing.
func TestHostileLockFile(t *testing.T) {
	top := t.TempDir()
	home := filepath.Join(top, "home")
	victim := filepath.Join(top, "victim")
	if err := os.MkdirAll(victim, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(home, pluginsDir), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, e := range map[string]Entry{
		"version": {Group: testGroup, Artifact: testArtifact, Version: "../../../../../../victim", OS: "linux", Arch: "amd64",
			Binary: "plugins/com/example/weir/urlrequest/../../../../../../victim/urlrequest"},
		"binary": {Group: testGroup, Artifact: testArtifact, Version: "1.0.0", OS: "linux", Arch: "amd64",
			Binary: "../victim/urlrequest"},
		"os": {Group: testGroup, Artifact: testArtifact, Version: "1.0.0", OS: "../x", Arch: "amd64",
			Binary: "plugins/com/example/weir/urlrequest/1.0.0/urlrequest"},
	} {
		t.Run(name, func(t *testing.T) {
			data, err := json.Marshal(Lock{Version: 1, Plugins: []Entry{e}})
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(home, lockFile), data, 0o600); err != nil {
				t.Fatal(err)
			}
			_, err = ReadLock(home)
			wantErr(t, err, "lock file", "plugin 1")
			o := Options{Home: home, Logger: testLogger(t), Version: "test"}
			_, err = Remove(context.Background(), o, Coordinates{Group: testGroup, Artifact: testArtifact})
			wantErr(t, err, "lock file")
			if _, err := os.Stat(victim); err != nil {
				t.Fatalf("the victim directory: %v", err)
			}
		})
	}
}

// TestConfine: paths that leave the plugin home, as written or through a
// symbolic link, are refused.
func TestConfine(t *testing.T) {
	top := t.TempDir()
	home := filepath.Join(top, "home")
	plugins := filepath.Join(home, pluginsDir)
	if err := os.MkdirAll(plugins, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(top, filepath.Join(plugins, "out")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{home, plugins, filepath.Join(plugins, ".."), filepath.Join(top, "x"),
		filepath.Join(plugins, "out", "x"), filepath.Join(plugins, "out")} {
		if err := confine(home, p); err == nil {
			t.Errorf("%s accepted", p)
		}
	}
	if err := confine(home, filepath.Join(plugins, "com", "example", "a", "1.0")); err != nil {
		t.Errorf("a path inside: %v", err)
	}
}

// tarGz builds an archive of regular files.
func tarGz(t *testing.T, files map[string]int) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for name, size := range files {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(size), Typeflag: tar.TypeReg, ModTime: time.Now()}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(make([]byte, size)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestExtractLimits: an entry over its limit, or entries over the total,
// are an error, never a silent cut.
func TestExtractLimits(t *testing.T) {
	lim := extractLimits{entry: 1000, total: 2500}
	cases := []struct {
		files map[string]int
		want  string
	}{
		{map[string]int{"a": 1001}, `archive entry "a" is larger than 1000 bytes`},
		{map[string]int{"a": 1000, "b": 1000, "c": 1000}, "unpacks to more than 2500 bytes"},
	}
	for _, c := range cases {
		err := extract(tarGz(t, c.files), t.TempDir(), lim)
		wantErr(t, err, c.want, "refused")
	}
	dir := t.TempDir()
	if err := extract(tarGz(t, map[string]int{"a": 1000, "b": 1000}), dir, lim); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(filepath.Join(dir, "b")); err != nil || st.Size() != 1000 {
		t.Fatalf("b: %v %v", st, err)
	}
}

// TestHostileMetadataTooLarge: a maven-metadata.xml over its bound is
// refused before it is parsed.
func TestHostileMetadataTooLarge(t *testing.T) {
	meta := "<metadata>" + strings.Repeat("<!-- padding -->", (maxSmallFile/16)+1) + "</metadata>"
	url, _ := hostileRepo(t, meta, []byte("x"), nil)
	r := newTestRepo(t)
	_, err := Install(context.Background(), r.options(t, url), Coordinates{Group: testGroup, Artifact: testArtifact})
	wantErr(t, err, "maven-metadata.xml", "is larger than 4 MiB")
}
