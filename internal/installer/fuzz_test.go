package installer

import (
	"path"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzCoordinatesAndMetadata feeds coordinates as the command line gives
// them and maven-metadata.xml as a repository serves it. Whatever is
// accepted must make paths that stay inside the repository and the plugin
// home; nothing may panic.
func FuzzCoordinatesAndMetadata(f *testing.F) {
	f.Add("com.example.weir:urlrequest", []byte(`<metadata><groupId>com.example.weir</groupId><artifactId>urlrequest</artifactId><versioning><release>1.0.0</release><versions><version>1.0.0</version></versions></versioning></metadata>`))
	f.Add("com.example.weir:urlrequest:1.0.0", []byte(`<metadata><versioning><release>../../../../../../victim9</release></versioning></metadata>`))
	f.Add("a:b", []byte(`<metadata><versioning><versions><version>1.10.0</version><version>1.9.0</version><version>..</version></versions></versioning></metadata>`))
	f.Add("a..b:c:1", []byte(`<metadata><groupId>x</groupId></metadata>`))
	f.Add("a:b:1/2", []byte(`not xml`))
	home := filepath.Join(string(filepath.Separator), "weir", "home")
	f.Fuzz(func(t *testing.T, coords string, meta []byte) {
		c, err := ParseCoordinates(coords, false)
		if err != nil {
			return
		}
		checkConfined(t, home, c)
		m, err := ParseMetadata(meta)
		if err != nil {
			return
		}
		_ = m.CheckArtifact(c)
		_ = m.Has(c.Version)
		want := c
		if want.Version == "" {
			want.Version = m.LatestRelease()
		}
		if want.Check(true) == nil {
			checkConfined(t, home, want)
		}
	})
}

// checkConfined fails unless c, accepted by Check, names paths inside the
// repository and the plugin home.
func checkConfined(t *testing.T, home string, c Coordinates) {
	t.Helper()
	if err := c.Check(false); err != nil {
		t.Fatalf("%+v: accepted by ParseCoordinates, refused by Check: %v", c, err)
	}
	for _, p := range []string{c.MetadataPath(), c.ArchivePath("linux", "amd64")} {
		if path.IsAbs(p) || p != path.Clean(p) || strings.HasPrefix(p, "../") || p == ".." {
			t.Fatalf("%+v: repository path %q leaves the repository", c, p)
		}
	}
	if c.Version == "" {
		return
	}
	dir := filepath.Join(home, filepath.FromSlash(c.installRel()))
	if !strictlyInside(filepath.Join(home, pluginsDir), dir) {
		t.Fatalf("%+v: install directory %s leaves the plugin home", c, dir)
	}
	if want := path.Join(pluginsDir, strings.ReplaceAll(c.Group, ".", "/"), c.Artifact, c.Version); c.installRel() != want {
		t.Fatalf("%+v: install directory %s, want %s", c, c.installRel(), want)
	}
}
