package searchindex_test

import (
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/weir-streams/weir/internal/plugins/searchindex"
)

// TestTLS: an https host is verified by default, so a server whose
// certificate no known authority signed is refused (and nothing is
// indexed); with its authority in tls.ca.file the documents go through.
func TestTLS(t *testing.T) {
	var got atomic.Int32
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.Add(1)
		cannedBulk(w, r)
	}))
	t.Cleanup(srv.Close)

	untrusted := startService(t, nil, map[string]string{searchindex.KeyHosts: srv.URL, searchindex.KeyNumRetry: "0"})
	_, err := wait(t, process(t, newIndexer(t, untrusted), records(2)))
	if err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Fatalf("Wait against an unknown certificate = %v, want a certificate error", err)
	}

	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	trusted := startService(t, nil, map[string]string{searchindex.KeyHosts: srv.URL, searchindex.KeyTLSCA: ca})
	if failed, err := wait(t, process(t, newIndexer(t, trusted), records(2))); err != nil || len(failed) != 0 {
		t.Fatalf("Wait with the CA = %d failed, %v", len(failed), err)
	}
	if got.Load() != 1 {
		t.Fatalf("server handled %d requests, want 1 (the untrusted client never got through)", got.Load())
	}
}
