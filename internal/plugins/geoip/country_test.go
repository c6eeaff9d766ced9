package geoip_test

import (
	"context"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/maxmind/mmdbwriter"
	"github.com/maxmind/mmdbwriter/mmdbtype"

	"github.com/weir-streams/weir/internal/plugins/cache"
	"github.com/weir-streams/weir/internal/plugins/geoip"

	"github.com/weir-streams/weir/internal/component"
)

// writeTyped writes a one-network database of the given type whose record
// has only a country, as GeoLite2-Country records do.
func writeTyped(t *testing.T, dbType string) string {
	t.Helper()
	tree, err := mmdbwriter.New(mmdbwriter.Options{DatabaseType: dbType, RecordSize: 24})
	if err != nil {
		t.Fatal(err)
	}
	_, n, _ := net.ParseCIDR("81.2.69.0/24")
	rec := mmdbtype.Map{
		"continent": mmdbtype.Map{"code": mmdbtype.String("EU"), "names": mmdbtype.Map{"en": mmdbtype.String("Europe"), "fr": mmdbtype.String("Europe")}},
		"country":   mmdbtype.Map{"iso_code": mmdbtype.String("GB"), "names": mmdbtype.Map{"en": mmdbtype.String("United Kingdom"), "fr": mmdbtype.String("Royaume-Uni")}},
	}
	if err := tree.Insert(n, rec); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), dbType+".mmdb")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tree.WriteTo(f); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestCountryDatabase reads a GeoLite2-Country database: only the
// country and continent fields come out, in the configured locale.
func TestCountryDatabase(t *testing.T) {
	svc, err := geoip.Open(writeTyped(t, "GeoLite2-Country"), "fr", time.Hour, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close(context.Background())
	p := geoip.New(geoip.Options{IPField: "src_ip", Hierarchical: false, FlatSuffix: "_geo_", Service: "geo"},
		svc, cache.NewLRUService(component.Env{}, 100, nil), component.Env{})
	r := run(t, p, "81.2.69.160")[0]
	if got := geoText(r); got != `src_ip_geo_continent="Europe" src_ip_geo_continent_code="EU" src_ip_geo_country="Royaume-Uni" src_ip_geo_country_isocode="GB"` {
		t.Errorf("got %s", got)
	}
	if _, ok, _ := svc.Locate(netip.MustParseAddr("81.2.70.1")); ok {
		t.Error("an address outside the database was located")
	}
}

// TestOtherDatabaseTypeRefused refuses a database that is neither City nor
// Country (an ASN database, say): its records hold no place.
func TestOtherDatabaseTypeRefused(t *testing.T) {
	_, err := geoip.Open(writeTyped(t, "GeoLite2-ASN"), "en", time.Hour, nil)
	if err == nil || !strings.Contains(err.Error(), "City or Country") {
		t.Errorf("error = %v", err)
	}
}
