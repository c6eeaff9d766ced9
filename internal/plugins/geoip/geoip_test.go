package geoip_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/metrics"
	"github.com/weir-streams/weir/internal/plugins/cache"
	"github.com/weir-streams/weir/internal/plugins/geoip"
	"github.com/weir-streams/weir/internal/record"
)

// services is the engine's service table, reduced to a map.
type services map[string]component.Service

func (s services) Service(name string) (component.Service, bool) { c, ok := s[name]; return c, ok }

// writeDB writes an .mmdb file of the given networks with mmdbwriter.
func writeDB(t testing.TB, path string, nets []geoip.StandInNetwork) {
	t.Helper()
	var buf bytes.Buffer
	if err := geoip.WriteStandIn(&buf, nets); err != nil {
		t.Fatal(err)
	}
	// Written beside and renamed, as a download tool replaces the file.
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// setup starts the service on a fresh database and builds IpToGeo with
// props through its spec, as the engine does.
func setup(t *testing.T, props map[string]string) (*geoip.Service, component.Processor, *prometheus.Registry, string) {
	return setupTB(t, props)
}

func setupB(b *testing.B) (*geoip.Service, component.Processor, *prometheus.Registry, string) {
	return setupTB(b, map[string]string{"cache.max.time": "0"})
}

func setupTB(t testing.TB, props map[string]string) (*geoip.Service, component.Processor, *prometheus.Registry, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "GeoLite2-City.mmdb")
	writeDB(t, path, geoip.StandInNetworks)
	svcSpec := geoip.ServiceSpec()
	sconf, probs := component.NewConfig(&svcSpec, map[string]string{"maxmind.database.path": path, "database.check.interval": "3600000"})
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	svc, err := svcSpec.NewService(context.Background(), sconf, component.Env{Name: "geo"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close(context.Background()) })
	reg := prometheus.NewRegistry()
	env := component.Env{Name: "geo_enrich", Stream: "s", Metrics: metrics.New(reg),
		Services: services{"geo": svc, "lru": cache.NewLRUService(component.Env{}, 16384, nil)}}
	all := map[string]string{"ip.address.field": "src_ip", "iptogeo.service": "geo", "cache.service": "lru"}
	for k, v := range props {
		all[k] = v
	}
	spec := geoip.IpToGeoSpec()
	conf, probs := component.NewConfig(&spec, all)
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	p, err := spec.NewProcessor(conf, env)
	if err != nil {
		t.Fatal(err)
	}
	return svc.(*geoip.Service), p, reg, path
}

func run(t *testing.T, p component.Processor, ips ...string) []*record.Record {
	t.Helper()
	var recs []*record.Record
	for _, ip := range ips {
		r := record.New("id", "apache_log", 0)
		r.SetString("src_ip", ip)
		recs = append(recs, r)
	}
	if err := p.Process(context.Background(), &component.Batch{Records: recs}); err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if r.HasErrors() {
			t.Fatalf("%s: errors %v", r, r.Errors())
		}
	}
	return recs
}

func geoText(r *record.Record) string {
	var parts []string
	for _, f := range r.Fields() {
		if f.Name == record.FieldID || f.Name == record.FieldType || f.Name == "src_ip" {
			continue
		}
		parts = append(parts, f.Name+"="+f.Value.String())
	}
	return strings.Join(parts, " ")
}

func TestIpToGeo(t *testing.T) {
	for _, tt := range []struct {
		name  string
		props map[string]string
		ip    string
		want  string
	}{
		// LogIsland's default: a map field X_geo with every field.
		{"hierarchical", nil, "66.249.73.135",
			`src_ip_geo={"accuracy_radius":20,"city":"Mountain View","continent":"North America","continent_code":"NA","country":"United States","country_isocode":"US","latitude":37.386,"location":"37.386,-122.0838","longitude":-122.0838,"postalcode":"94035","subdivision_0":"California","subdivision_isocode_0":"CA","time_zone":"America/Los_Angeles"}`},
		// geo.hierarchical false: X_geo_<field>, with a subset.
		{"flat subset", map[string]string{"geo.hierarchical": "false", "geo.fields": "city,country_isocode,location"}, "46.105.14.53",
			`src_ip_geo_country_isocode="FR" src_ip_geo_city="Paris" src_ip_geo_location="48.8566,2.3522"`},
		{"suffixes", map[string]string{"geo.hierarchical": "false", "geo.flat.suffix": "_", "geo.fields": "city"}, "130.237.218.86", `src_ip_city="Berlin"`},
		{"hierarchical suffix", map[string]string{"geo.hierarchical.suffix": "_location", "geo.fields": "city"}, "180.76.5.25", `src_ip_location={"city":"Tokyo"}`},
		{"ipv6", map[string]string{"geo.fields": "country_isocode"}, "2001:4860:4860::8888", `src_ip_geo={"country_isocode":"US"}`},
		{"mapped ipv4", map[string]string{"geo.fields": "city"}, "::ffff:66.249.73.135", `src_ip_geo={"city":"Mountain View"}`},
		{"not in database", nil, "8.8.8.8", ``},
		{"private", nil, "192.168.1.10", ``},
		{"loopback", nil, "127.0.0.1", ``},
		{"shared address space", nil, "100.64.1.1", ``},
		{"documentation v6", nil, "2001:db8::1", ``},
		{"not an address", nil, "host.example", ``},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, p, _, _ := setup(t, tt.props)
			for round := 0; round < 2; round++ { // the second round is answered by the cache
				if got := geoText(run(t, p, tt.ip)[0]); got != tt.want {
					t.Errorf("round %d: got  %s\nwant %s", round, got, tt.want)
				}
			}
		})
	}
}

func TestIpToGeoCountsOutcomes(t *testing.T) {
	_, p, reg, _ := setup(t, nil)
	run(t, p, "66.1.1.1", "66.1.1.1", "10.1.1.1", "8.8.8.8", "x")
	want := map[string]float64{"located": 2, "private_or_reserved": 1, "not_found": 1, "invalid_address": 1}
	mfs, _ := reg.Gather()
	got := map[string]float64{}
	for _, mf := range mfs {
		if mf.GetName() == "weir_ip_to_geo_records_total" {
			for _, m := range mf.GetMetric() {
				for _, l := range m.GetLabel() {
					if l.GetName() == "outcome" {
						got[l.GetValue()] = m.GetCounter().GetValue()
					}
				}
			}
		}
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %v, want %v (all: %v)", k, got[k], v, got)
		}
	}
}

// TestNewDatabaseWithoutRestart replaces the file and checks that the
// next batch sees the new database, although the old answer is cached.
func TestNewDatabaseWithoutRestart(t *testing.T) {
	svc, p, _, path := setup(t, map[string]string{"geo.fields": "city"})
	if got := geoText(run(t, p, "66.249.73.135")[0]); got != `src_ip_geo={"city":"Mountain View"}` {
		t.Fatalf("before: %s", got)
	}
	moved := append([]geoip.StandInNetwork(nil), geoip.StandInNetworks...)
	moved[0].City = "Lyon"
	writeDB(t, path, moved)
	// Make the change visible even on a file system with coarse times.
	later := time.Now().Add(2 * time.Second)
	os.Chtimes(path, later, later)
	if !svc.Reload() {
		t.Fatal("the new file was not loaded")
	}
	if got := geoText(run(t, p, "66.249.73.135")[0]); got != `src_ip_geo={"city":"Lyon"}` {
		t.Errorf("after: %s", got)
	}
	// A broken file keeps the loaded database.
	os.WriteFile(path, []byte("not a database"), 0o644)
	if svc.Reload() {
		t.Error("a broken file was loaded")
	}
	if got := geoText(run(t, p, "66.249.73.135")[0]); got != `src_ip_geo={"city":"Lyon"}` {
		t.Errorf("after a broken file: %s", got)
	}
}

// TestWatcherPicksUpNewFile lets the service's own check find the new
// file (interval 100 ms), waiting on the generation, not on time.
func TestWatcherPicksUpNewFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "db.mmdb")
	writeDB(t, path, geoip.StandInNetworks)
	svc, err := geoip.Open(path, "en", 100*time.Millisecond, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close(context.Background())
	writeDB(t, path, geoip.StandInNetworks[:2])
	later := time.Now().Add(2 * time.Second)
	os.Chtimes(path, later, later)
	deadline := time.Now().Add(20 * time.Second)
	for svc.Generation() == 1 {
		if time.Now().After(deadline) {
			t.Fatal("the watcher did not load the new file within 20 s")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestServiceValidation(t *testing.T) {
	spec := geoip.ServiceSpec()
	if _, probs := component.NewConfig(&spec, map[string]string{}); len(probs) == 0 {
		t.Error("no database accepted")
	}
	path := filepath.Join(t.TempDir(), "bad.mmdb")
	os.WriteFile(path, []byte("nope"), 0o644)
	if _, err := geoip.Open(path, "en", time.Hour, nil); err == nil {
		t.Error("a file that is not a database was opened")
	}
	ip := geoip.IpToGeoSpec()
	if _, probs := component.NewConfig(&ip, map[string]string{"ip.address.field": "a", "iptogeo.service": "g", "cache.service": "c", "geo.fields": "cty"}); len(probs) == 0 ||
		!strings.Contains(probs.Error(), `did you mean "city"`) {
		t.Errorf("geo.fields typo: %v", probs)
	}
}

// TestStandIn starts the service on the stand-in database, as the sample
// job does without GEOIP_DB: it locates the stand-in's networks, says that
// its places are made up, and removes its temporary file on Close.
func TestStandIn(t *testing.T) {
	var logs bytes.Buffer
	spec := geoip.ServiceSpec()
	conf, probs := component.NewConfig(&spec, map[string]string{"maxmind.database.path": geoip.StandIn})
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	svc, err := spec.NewService(context.Background(), conf, component.Env{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	g, ok, err := svc.(*geoip.Service).Locate(netip.MustParseAddr("130.237.218.86"))
	if err != nil || !ok || g.City != "Berlin" || g.CountryISOCode != "DE" || !g.HasLocation {
		t.Errorf("Locate = %+v, %v, %v", g, ok, err)
	}
	if !strings.Contains(logs.String(), "STAND-IN") || !strings.Contains(logs.String(), "level=WARN") {
		t.Errorf("no warning about the stand-in:\n%s", logs.String())
	}
	path := svc.(*geoip.Service).Path()
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("stand-in file: %v", err)
	}
	if err := svc.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("stand-in file %s still there after Close: %v", path, err)
	}
}

// TestIpToGeoBatchAnswersEachAddress runs one batch of 624 records whose
// addresses (located, private, unknown, invalid; more distinct ones than
// the batch's table of recent answers has slots) repeat and interleave:
// every record must get what its address gets alone.
func TestIpToGeoBatchAnswersEachAddress(t *testing.T) {
	// Addresses of one length in networks with other answers, so that
	// only the whole address tells them apart.
	prefixes := []string{"66", "46", "75", "10", "99", "zz", "66", "46"}
	var ips []string
	for i := 0; i < 600; i++ {
		ips = append(ips, fmt.Sprintf("%s.%d.1.1", prefixes[i%len(prefixes)], 10+(i*7)%90))
		if i%50 == 0 {
			ips = append(ips, "2001:4860:4860::8888", "130.237.218.86")
		}
	}
	_, alone, _, _ := setup(t, nil)
	want := map[string]string{}
	for _, ip := range ips {
		if _, ok := want[ip]; !ok {
			want[ip] = geoText(run(t, alone, ip)[0])
		}
	}
	_, p, _, _ := setup(t, nil)
	for round := 0; round < 2; round++ { // cold, then from the shared cache
		for i, r := range run(t, p, ips...) {
			if got := geoText(r); got != want[ips[i]] {
				t.Fatalf("round %d, record %d (%s): got %s, want %s", round, i, ips[i], got, want[ips[i]])
			}
		}
	}
}
