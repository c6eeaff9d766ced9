package searchindex_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/plugins/searchindex"
	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/testserver/toxi"
	"github.com/weir-streams/weir/internal/testserver/zinc"
)

// faultHold is how long a fault lasts at least: 3 s, or 60 s under
// WEIR_LONG_FAULTS=1.
func faultHold() time.Duration {
	if os.Getenv("WEIR_LONG_FAULTS") == "1" {
		return 60 * time.Second
	}
	return 3 * time.Second
}

// TestFaultSearchIndexLookup runs EnrichRecordsElasticsearch against
// ZincSearch behind Toxiproxy with request.timeout at 1 s, and processes
// batches while a fault lasts and after it is removed. Every batch keeps
// all its records; a record is either enriched with the right document or
// an error record naming the lookup's failure (never enriched wrongly, never
// dropped); a fault that stops the link turns lookups into error records
// within the bound instead of holding the batch; after the fault every
// record is enriched.
func TestFaultSearchIndexLookup(t *testing.T) {
	faults := []struct {
		name string
		// fails: no lookup can succeed within request.timeout.
		fails bool
		apply func(t *testing.T, p *toxi.Proxy) func()
	}{
		{"latency", true, func(t *testing.T, p *toxi.Proxy) func() { f := p.Latency(t, 1000, 250); return func() { f.Remove(t) } }},
		{"bandwidth", false, func(t *testing.T, p *toxi.Proxy) func() { f := p.Bandwidth(t, 10); return func() { f.Remove(t) } }},
		{"reset_peer", true, func(t *testing.T, p *toxi.Proxy) func() { f := p.ResetPeer(t, 0); return func() { f.Remove(t) } }},
		{"blackhole", true, func(t *testing.T, p *toxi.Proxy) func() { f := p.Blackhole(t); return func() { f.Remove(t) } }},
		{"partition", true, func(t *testing.T, p *toxi.Proxy) func() { p.Disable(t); return func() { p.Enable(t) } }},
		{"slow_close", false, func(t *testing.T, p *toxi.Proxy) func() { f := p.SlowClose(t, 3000); return func() { f.Remove(t) } }},
	}
	srv := zinc.New(t)
	seedWebshops(t, srv, zincService(t, srv))
	want := map[string]string{"fr-1000": "Orexad", "de-2000": "Rubix DE"}
	for _, fc := range faults {
		t.Run(fc.name, func(t *testing.T) {
			proxy := toxi.New(t).Proxy(t, "search", strings.TrimPrefix(srv.URL(), "http://"))
			svc := startService(t, nil, map[string]string{searchindex.KeyHosts: "http://" + proxy.Addr() + "/es",
				searchindex.KeyUsername: zinc.User, searchindex.KeyPassword: zinc.Password, searchindex.KeyRequestTimeout: "1000"})
			p := buildProc(t, searchindex.EnrichSpec(), services{"es": svc}, map[string]string{"elasticsearch.client.service": "es",
				"es.index": "openanalytics_webshops", "record.key": "${webshopId}", "es.includes.field": "Company"})
			batch := func() (enriched, failed int) {
				t.Helper()
				var in []*record.Record
				for i := range 20 {
					id := "fr-1000"
					if i%2 == 1 {
						id = "de-2000"
					}
					in = append(in, rec("webshopId", id))
				}
				b := &component.Batch{Records: in}
				if err := p.Process(context.Background(), b); err != nil {
					t.Fatalf("process: %v", err)
				}
				if len(b.Records) != len(in) {
					t.Fatalf("%d records out of %d: the lookup fault dropped records", len(b.Records), len(in))
				}
				for _, r := range b.Records {
					id, _ := r.GetString("webshopId")
					switch got := fieldText(r, "Company"); {
					case r.HasErrors():
						if errs := strings.Join(r.Errors(), ""); !strings.Contains(errs, searchindex.ErrLookup) {
							t.Errorf("record %s: errors %q do not name the lookup", id, errs)
						}
						failed++
					case got == want[id]:
						enriched++
					default:
						t.Errorf("record %s: Company %q, want %q", id, got, want[id])
					}
				}
				return enriched, failed
			}
			if enriched, _ := batch(); enriched != 20 {
				t.Fatalf("%d of 20 records enriched before the fault", enriched)
			}
			heal := fc.apply(t, proxy)
			deadline := time.Now().Add(faultHold())
			failed := 0
			for time.Now().Before(deadline) {
				_, f := batch()
				failed += f
				// A refused connection fails at once: do not spin.
				time.Sleep(50 * time.Millisecond)
			}
			if fc.fails && failed == 0 {
				t.Errorf("no lookup failed while the fault lasted")
			}
			heal()
			if enriched, f := batch(); enriched != 20 {
				t.Errorf("%d of 20 records enriched after the fault (%d error records)", enriched, f)
			}
			t.Logf("%d error records during the fault", failed)
		})
	}
}
