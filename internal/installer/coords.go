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
	for _, p := range []struct{ name, v string }{{"group", c.Group}, {"artifact", c.Artifact}, {"version", c.Version}} {
		if p.v == "" && p.name == "version" {
			continue
		}
		if !coordPart.MatchString(p.v) || strings.Contains(p.v, "..") {
			return Coordinates{}, fmt.Errorf("coordinates %q: %s %q may hold only letters, digits, '.', '_' and '-'", s, p.name, p.v)
		}
	}
	return c, nil
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

// ArchivePath is the path of the archive for os/arch in a repository.
func (c Coordinates) ArchivePath(goos, goarch string) string {
	return path.Join(c.artifactDir(), c.Version, fmt.Sprintf("%s-%s-%s-%s.tar.gz", c.Artifact, c.Version, goos, goarch))
}
