package installer

// Bundled is an optional component of the spec that Weir builds in: it is
// listed with coordinates, and installing it is answered with "bundled".
type Bundled struct {
	Coordinates Coordinates
	// Aliases are other coordinates (LogIsland's) that name the same
	// component, so a command copied from LogIsland gets the same answer.
	Aliases    []Coordinates
	Components []string
}

// BundledGroup is the group of the components Weir builds in.
const BundledGroup = "io.github.weir-streams"

// BundledArtifacts returns the spec's optional components that Weir builds
// in, at version (Weir's own). Components lists the identifiers each
// provides; those not in this build's registry are reported as such by
// List.
func BundledArtifacts(version string) []Bundled {
	lis := func(a string) Coordinates { return Coordinates{Group: "com.hurence.logisland", Artifact: a} }
	return []Bundled{
		{
			Coordinates: Coordinates{Group: BundledGroup, Artifact: "weir-processor-useragent", Version: version},
			Aliases:     []Coordinates{lis("logisland-processor-useragent")},
			Components:  []string{"pkg.processor.useragent.ParseUserAgent"},
		},
		{
			Coordinates: Coordinates{Group: BundledGroup, Artifact: "weir-processor-enrichment", Version: version},
			Aliases:     []Coordinates{lis("logisland-processor-enrichment")},
			Components:  []string{"pkg.processor.enrichment.IpToFqdn"},
		},
		{
			Coordinates: Coordinates{Group: BundledGroup, Artifact: "weir-searchindex", Version: version},
			Aliases: []Coordinates{
				lis("logisland-processor-elasticsearch"),
				lis("logisland-service-elasticsearch_7_x-client"),
				lis("logisland-service-elasticsearch_6_6_2-client"),
			},
			Components: []string{"pkg.processor.searchindex.BulkAddSearchIndex", "pkg.service.searchindex.SearchIndexClientService"},
		},
	}
}

// findBundled returns the bundled artifact that c (with or without a
// version) names.
func findBundled(c Coordinates, version string) (Bundled, bool) {
	for _, b := range BundledArtifacts(version) {
		if b.Coordinates.Key() == c.Key() {
			return b, true
		}
		for _, a := range b.Aliases {
			if a.Key() == c.Key() {
				return b, true
			}
		}
	}
	return Bundled{}, false
}
