package all_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/weir-streams/weir/internal/plugins/geoip"
)

// startSearchServer starts an HTTP server on 127.0.0.1 that answers
// Elasticsearch's `GET /`, `POST /_bulk` and `POST /{index}/_search` in their
// documented shapes,
// accepting every document. No Elasticsearch runs here; the searchindex
// package's own tests cover refusals and ZincSearch. It returns the base URL
// and the count of documents indexed.
func startSearchServer(t *testing.T) (string, *atomic.Int64) {
	t.Helper()
	var indexed atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"name":"lifecycle","cluster_name":"lifecycle","version":{"number":"8.13.0"},"tagline":"You Know, for Search"}`)
	})
	mux.HandleFunc("POST /_bulk", func(w http.ResponseWriter, r *http.Request) {
		var items bytes.Buffer
		sc := bufio.NewScanner(r.Body)
		sc.Buffer(make([]byte, 0, 64*1024), 16<<20)
		n := 0
		for sc.Scan() {
			var meta map[string]struct {
				Index string `json:"_index"`
				ID    string `json:"_id"`
			}
			if err := json.Unmarshal(sc.Bytes(), &meta); err != nil {
				http.Error(w, fmt.Sprintf(`{"error":"action line: %v","status":400}`, err), http.StatusBadRequest)
				return
			}
			m := meta["index"]
			sc.Scan() // The source line of the action.
			if n > 0 {
				items.WriteByte(',')
			}
			fmt.Fprintf(&items, `{"index":{"_index":%q,"_id":%q,"_version":1,"result":"created","status":201}}`, m.Index, m.ID)
			n++
		}
		indexed.Add(int64(n))
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"took":1,"errors":false,"items":[%s]}`, items.String())
	})
	// A search finds no document: the enrichment processors look up by id.
	mux.HandleFunc("POST /{index}/_search", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"took":1,"timed_out":false,"hits":{"total":{"value":0,"relation":"eq"},"hits":[]}}`)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL, &indexed
}

// writeGeoDatabase writes a real .mmdb file (the stand-in networks, written
// with mmdbwriter) into a temporary directory and returns its path.
func writeGeoDatabase(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "GeoLite2-City.mmdb")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := geoip.WriteStandIn(f, geoip.StandInNetworks); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}
