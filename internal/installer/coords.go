// Package installer installs, lists, removes and loads Weir's third-party
// components: processor plugins published as Maven-layout artifacts.
//
// An artifact group:artifact:version is fetched from a repository (https,
// http or file) at
//
//	{group with dots as slashes}/{artifact}/{version}/{artifact}-{version}-{os}-{arch}.tar.gz
//
// with its .sha256 and .sig siblings, after maven-metadata.xml in
// {group}/{artifact}/ has listed the version. The archive's sha256 must
// match, and its detached ed25519 signature must verify against a trusted
// key (unless the user says --allow-unsigned). The plugin binary is
// unpacked under the Weir home, run once to read its manifest (its
// processors and their declared properties), and recorded in the lock file
// with its coordinates, os/arch and hashes. At start, RegisterInstalled
// hashes every binary again and registers its processors into the
// component registry; a processor runs the plugin as a subprocess through
// hashicorp/go-plugin, one process per processor of a running pipeline.
package installer

import (
	"fmt"
	"path"
	"regexp"
	"strings"
)

// Coordinates name an artifact as Maven does.
type Coordinates struct {
	Group, Artifact, Version string
}

// coordPart is what a group, artifact or version may hold: Maven's usual
// characters, and nothing that could climb out of a directory.
var coordPart = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// platformPart is what an os or an arch may hold, as Go names them.
var platformPart = regexp.MustCompile(`^[a-z0-9][a-z0-9_]*$`)

// maxCoordPart bounds each part: a name longer than this is no Maven name,
// and file systems refuse names over 255 bytes.
const maxCoordPart = 128

// ParseCoordinates parses group:artifact[:version]. The version is
// required when needVersion is true; without it, an empty version means
// "the latest release".
func ParseCoordinates(s string, needVersion bool) (Coordinates, error) {
	parts := strings.Split(s, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return Coordinates{}, fmt.Errorf("coordinates %q: want group:artifact:version", s)
	}
	c := Coordinates{Group: parts[0], Artifact: parts[1]}
	if len(parts) == 3 {
		c.Version = parts[2]
	}
	if needVersion && c.Version == "" {
		return Coordinates{}, fmt.Errorf("coordinates %q: want group:artifact:version", s)
	}
	if err := c.Check(needVersion); err != nil {
		return Coordinates{}, fmt.Errorf("coordinates %q: %w", s, err)
	}
	return c, nil
}

// Check is the one check of coordinates, wherever they come from: the
// command line, a repository's maven-metadata.xml or the lock file. Each
// part may hold only letters, digits, '.', '_' and '-', starts with a
// letter or digit and holds no "..", so that no part can name a directory
// other than its own once it is made a path. An empty version is accepted
// unless needVersion.
func (c Coordinates) Check(needVersion bool) error {
	for _, p := range []struct{ name, v string }{{"group", c.Group}, {"artifact", c.Artifact}, {"version", c.Version}} {
		if p.v == "" && p.name == "version" && !needVersion {
			continue
		}
		if err := checkPart(p.name, p.v); err != nil {
			return err
		}
	}
	return nil
}

func checkPart(name, v string) error {
	if len(v) > maxCoordPart || !coordPart.MatchString(v) || strings.Contains(v, "..") {
		return fmt.Errorf("%s %s may hold only letters, digits, '.', '_' and '-' (at most %d, no \"..\")", name, quoteShort(v), maxCoordPart)
	}
	return nil
}

// CheckPlatform checks an os and an arch, which become part of file names.
func CheckPlatform(goos, goarch string) error {
	for _, p := range []struct{ name, v string }{{"os", goos}, {"arch", goarch}} {
		if len(p.v) > 32 || !platformPart.MatchString(p.v) {
			return fmt.Errorf("%s %s may hold only lower-case letters, digits and '_'", p.name, quoteShort(p.v))
		}
	}
	return nil
}

// quoteShort quotes a value for an error, cut so that a hostile
// repository cannot fill a terminal or a log line.
func quoteShort(v string) string {
	if len(v) > 64 {
		return fmt.Sprintf("%q...", v[:64])
	}
	return fmt.Sprintf("%q", v)
}

// String returns group:artifact:version (group:artifact without a version).
func (c Coordinates) String() string {
	if c.Version == "" {
		return c.Key()
	}
	return c.Group + ":" + c.Artifact + ":" + c.Version
}

// Key returns group:artifact, which names an installed artifact whatever
// its version.
func (c Coordinates) Key() string { return c.Group + ":" + c.Artifact }

// artifactDir is the artifact's directory in a repository.
func (c Coordinates) artifactDir() string {
	return path.Join(strings.ReplaceAll(c.Group, ".", "/"), c.Artifact)
}

// MetadataPath is the path of maven-metadata.xml in a repository.
func (c Coordinates) MetadataPath() string { return path.Join(c.artifactDir(), "maven-metadata.xml") }

// installRel is the artifact's directory in the Weir home, relative to it:
// plugins/{group with dots as slashes}/{artifact}/{version}.
func (c Coordinates) installRel() string {
	return path.Join(pluginsDir, c.artifactDir(), c.Version)
}

// ArchivePath is the path of the archive for os/arch in a repository.
func (c Coordinates) ArchivePath(goos, goarch string) string {
	return path.Join(c.artifactDir(), c.Version, fmt.Sprintf("%s-%s-%s-%s.tar.gz", c.Artifact, c.Version, goos, goarch))
}
