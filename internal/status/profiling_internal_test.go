package status

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// TestProfilingRefusesOtherPeers: tests reach only 127.0.0.1, so a peer
// elsewhere cannot connect over a socket here; the handler is given
// requests with such peer addresses instead. X-Forwarded-For, which any
// client writes, must not make a peer local.
func TestProfilingRefusesOtherPeers(t *testing.T) {
	mux := http.NewServeMux()
	registerProfiling(mux, Options{Profiling: true}, time.Minute)
	h := harden(mux, Options{Profiling: true})
	// The peers are RemoteAddr values of requests made in memory
	// (httptest): no socket is opened, so they carry port 0.
	for _, c := range []struct {
		peer string
		want int
	}{
		{"127.0.0.1:0", 200},
		{"[::1]:0", 200},
		{"192.0.2.10:0", http.StatusForbidden},
		{"[2001:db8::1]:0", http.StatusForbidden},
	} {
		r := httptest.NewRequest(http.MethodGet, "/debug/pprof/", nil)
		r.RemoteAddr = c.peer
		r.Header.Set("X-Forwarded-For", "127.0.0.1")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != c.want {
			t.Errorf("peer %s: %d, want %d", c.peer, w.Code, c.want)
		}
	}
}
