package geoip

import (
	"fmt"
	"io"
	"net"

	"github.com/maxmind/mmdbwriter"
	"github.com/maxmind/mmdbwriter/mmdbtype"
)

// StandInNetwork is one network of the stand-in database.
type StandInNetwork struct {
	CIDR                        string
	City, Country, CountryISO   string
	Continent, ContinentCode    string
	Subdivision, SubdivisionISO string
	Latitude, Longitude         float64
	TimeZone, Postal            string
	AccuracyRadius              uint16
}

// StandInNetworks are the networks of the stand-in database: a few /8
// networks common in the bundled access log, each given one city. The
// places are made up for the sample and tests; they are NOT where these
// addresses are. A real GeoLite2 City file replaces them (docs/processors.md).
var StandInNetworks = []StandInNetwork{
	{"66.0.0.0/8", "Mountain View", "United States", "US", "North America", "NA", "California", "CA", 37.386, -122.0838, "America/Los_Angeles", "94035", 20},
	{"46.0.0.0/8", "Paris", "France", "FR", "Europe", "EU", "Île-de-France", "IDF", 48.8566, 2.3522, "Europe/Paris", "75001", 10},
	{"130.0.0.0/8", "Berlin", "Germany", "DE", "Europe", "EU", "Land Berlin", "BE", 52.52, 13.405, "Europe/Berlin", "10115", 10},
	{"208.0.0.0/8", "Chicago", "United States", "US", "North America", "NA", "Illinois", "IL", 41.8781, -87.6298, "America/Chicago", "60601", 50},
	{"75.0.0.0/8", "Montreal", "Canada", "CA", "North America", "NA", "Quebec", "QC", 45.5017, -73.5673, "America/Toronto", "H2Y", 20},
	{"193.0.0.0/8", "Amsterdam", "Netherlands", "NL", "Europe", "EU", "North Holland", "NH", 52.3676, 4.9041, "Europe/Amsterdam", "1012", 10},
	{"180.0.0.0/8", "Tokyo", "Japan", "JP", "Asia", "AS", "Tokyo", "13", 35.6762, 139.6503, "Asia/Tokyo", "100-0001", 50},
	{"2001:4860::/32", "Mountain View", "United States", "US", "North America", "NA", "California", "CA", 37.386, -122.0838, "America/Los_Angeles", "94035", 100},
}

// WriteStandIn writes a small GeoLite2-City-shaped database of the given
// networks (StandInNetworks for the sample job) with mmdbwriter: the real
// format, read by the real reader. The sample job uses it when no real
// database is given, and says so.
func WriteStandIn(w io.Writer, nets []StandInNetwork) error {
	tree, err := mmdbwriter.New(mmdbwriter.Options{DatabaseType: "GeoLite2-City", RecordSize: 24, IPVersion: 6,
		Description: map[string]string{"en": "Weir stand-in geo database: made-up places, not real locations"}})
	if err != nil {
		return fmt.Errorf("stand-in geo database: %w", err)
	}
	for _, n := range nets {
		_, ipnet, err := net.ParseCIDR(n.CIDR)
		if err != nil {
			return fmt.Errorf("stand-in geo database: %w", err)
		}
		names := func(s string) mmdbtype.Map { return mmdbtype.Map{"en": mmdbtype.String(s)} }
		rec := mmdbtype.Map{
			"city":      mmdbtype.Map{"names": names(n.City)},
			"continent": mmdbtype.Map{"code": mmdbtype.String(n.ContinentCode), "names": names(n.Continent)},
			"country":   mmdbtype.Map{"iso_code": mmdbtype.String(n.CountryISO), "names": names(n.Country)},
			"location": mmdbtype.Map{"latitude": mmdbtype.Float64(n.Latitude), "longitude": mmdbtype.Float64(n.Longitude),
				"time_zone": mmdbtype.String(n.TimeZone), "accuracy_radius": mmdbtype.Uint16(n.AccuracyRadius)},
			"postal":       mmdbtype.Map{"code": mmdbtype.String(n.Postal)},
			"subdivisions": mmdbtype.Slice{mmdbtype.Map{"iso_code": mmdbtype.String(n.SubdivisionISO), "names": names(n.Subdivision)}},
		}
		if err := tree.Insert(ipnet, rec); err != nil {
			return fmt.Errorf("stand-in geo database: %s: %w", n.CIDR, err)
		}
	}
	if _, err := tree.WriteTo(w); err != nil {
		return fmt.Errorf("stand-in geo database: %w", err)
	}
	return nil
}
