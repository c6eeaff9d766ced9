package geoip

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/component/configtest"
)

// TestIpToGeoConfig decodes IpToGeo's configurations from testdata.
func TestIpToGeoConfig(t *testing.T) {
	for _, tt := range []struct {
		id      string
		want    *IpToGeoConfig
		wantErr string
	}{
		{id: "geo_defaults", want: &IpToGeoConfig{IPField: "src_ip", GeoService: "maxmind_service", CacheService: "lru_cache",
			GeoFields: "*", Hierarchical: true, HierarchicalSuffix: "_geo", FlatSuffix: "_geo_", CacheMaxSeconds: 86400}},
		{id: "geo_full", want: &IpToGeoConfig{IPField: "client", GeoService: "maxmind_service", CacheService: "lru_cache",
			GeoFields: "city, country_isocode,location", HierarchicalSuffix: "_where", FlatSuffix: "_at_",
			fields: map[string]bool{"city": true, "country_isocode": true, "location": true}}},
		{id: "geo_field_typo", wantErr: `property "geo.fields": "cty" is not a geo field (did you mean "city"?)`},
		{id: "geo_no_service", wantErr: `missing required property "iptogeo.service"`},
	} {
		got, err := configtest.Decode[IpToGeoConfig](IpToGeoSpec(), "testdata/config.yaml", tt.id)
		expect(t, tt.id, got, err, tt.want, tt.wantErr)
	}
}

// TestMaxmindIpToGeoConfig decodes MaxmindIpToGeoService's configurations
// from testdata: the database is given by path or by file: URI, once.
func TestMaxmindIpToGeoConfig(t *testing.T) {
	const file = "/var/lib/weir/GeoLite2-City.mmdb"
	for _, tt := range []struct {
		id      string
		want    *MaxmindIpToGeoConfig
		wantErr string
	}{
		{id: "maxmind_path", want: &MaxmindIpToGeoConfig{Path: file, PathSet: true, Locale: "en", CheckInterval: time.Minute, file: file}},
		{id: "maxmind_uri", want: &MaxmindIpToGeoConfig{URI: "file://" + file, URISet: true, Locale: "pt-BR", CheckInterval: 5 * time.Second, file: file}},
		{id: "maxmind_both", wantErr: `give exactly one of "maxmind.database.path" and "maxmind.database.uri"`},
		{id: "maxmind_neither", wantErr: `give exactly one of "maxmind.database.path" and "maxmind.database.uri"`},
		{id: "maxmind_hdfs", wantErr: `property "maxmind.database.uri": "hdfs://namenode/GeoLite2-City.mmdb" is not a file: URI`},
		{id: "maxmind_check_too_often", wantErr: `property "database.check.interval"`},
	} {
		got, err := configtest.Decode[MaxmindIpToGeoConfig](ServiceSpec(), "testdata/config.yaml", tt.id)
		expect(t, tt.id, got, err, tt.want, tt.wantErr)
	}
}

// expect compares a decoded configuration, or the error, with a case's.
func expect[C any](t *testing.T, id string, got *C, err error, want *C, wantErr string) {
	t.Helper()
	switch {
	case wantErr == "" && (err != nil || !reflect.DeepEqual(got, want)):
		t.Errorf("%s: %+v, %v; want %+v", id, got, err, want)
	case wantErr != "" && (err == nil || !strings.Contains(err.Error(), wantErr)):
		t.Errorf("%s: error %v, want one containing %q", id, err, wantErr)
	}
}
