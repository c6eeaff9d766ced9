package installer

import (
	"encoding/xml"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Metadata is the part of Maven's maven-metadata.xml the installer reads
// and writes: the versions of an artifact.
type Metadata struct {
	XMLName    xml.Name `xml:"metadata"`
	GroupID    string   `xml:"groupId"`
	ArtifactID string   `xml:"artifactId"`
	Versioning struct {
		Latest      string   `xml:"latest,omitempty"`
		Release     string   `xml:"release,omitempty"`
		Versions    []string `xml:"versions>version"`
		LastUpdated string   `xml:"lastUpdated,omitempty"`
	} `xml:"versioning"`
}

// ParseMetadata reads maven-metadata.xml.
func ParseMetadata(data []byte) (*Metadata, error) {
	var m Metadata
	if err := xml.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("read maven-metadata.xml: %w", err)
	}
	return &m, nil
}

// CheckArtifact refuses metadata that names another artifact than c: a
// repository must not answer for one artifact with another's versions.
// Metadata without groupId or artifactId is taken as c's.
func (m *Metadata) CheckArtifact(c Coordinates) error {
	if (m.GroupID != "" && m.GroupID != c.Group) || (m.ArtifactID != "" && m.ArtifactID != c.Artifact) {
		return fmt.Errorf("maven-metadata.xml of %s names another artifact, %s:%s; refused", c.Key(), quoteShort(m.GroupID), quoteShort(m.ArtifactID))
	}
	return nil
}

// Has reports whether the metadata lists version.
func (m *Metadata) Has(version string) bool { return slices.Contains(m.Versioning.Versions, version) }

// LatestRelease returns the version to install when none is given: the
// <release> element, else the highest listed version.
func (m *Metadata) LatestRelease() string {
	if m.Versioning.Release != "" {
		return m.Versioning.Release
	}
	vs := slices.Clone(m.Versioning.Versions)
	slices.SortFunc(vs, compareVersions)
	if len(vs) == 0 {
		return ""
	}
	return vs[len(vs)-1]
}

// Add lists version (if it is not yet), makes it the latest and release,
// and stamps the update time, as a deploy to a Maven repository does.
func (m *Metadata) Add(c Coordinates, now time.Time) {
	m.GroupID, m.ArtifactID = c.Group, c.Artifact
	if !m.Has(c.Version) {
		m.Versioning.Versions = append(m.Versioning.Versions, c.Version)
	}
	slices.SortFunc(m.Versioning.Versions, compareVersions)
	top := m.Versioning.Versions[len(m.Versioning.Versions)-1]
	m.Versioning.Latest, m.Versioning.Release = top, top
	m.Versioning.LastUpdated = now.UTC().Format("20060102150405")
}

// Marshal writes the metadata as XML.
func (m *Metadata) Marshal() ([]byte, error) {
	out, err := xml.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	return append([]byte(xml.Header), append(out, '\n')...), nil
}

// compareVersions orders dotted versions numerically where both parts are
// numbers (1.10.0 after 1.9.0), as text otherwise.
func compareVersions(a, b string) int {
	pa, pb := strings.FieldsFunc(a, isVersionSep), strings.FieldsFunc(b, isVersionSep)
	for i := 0; i < len(pa) && i < len(pb); i++ {
		na, ea := strconv.Atoi(pa[i])
		nb, eb := strconv.Atoi(pb[i])
		switch {
		case ea == nil && eb == nil:
			if na != nb {
				return na - nb
			}
		case pa[i] != pb[i]:
			return strings.Compare(pa[i], pb[i])
		}
	}
	return len(pa) - len(pb)
}

func isVersionSep(r rune) bool { return r == '.' || r == '-' }
