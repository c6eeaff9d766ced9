package status

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/pprof"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Source gives the server what it shows. The engine implements it.
type Source interface {
	// Status returns a JSON-encodable description of what runs.
	Status() any
	// Ready reports whether the job runs: it has applied a dataflow and
	// every stream has joined its group.
	Ready() bool
}

// Server is the status server on engine.ui.port: /healthz, /readyz,
// /metrics and /api/status.
type Server struct {
	srv  *http.Server
	ln   net.Listener
	done chan error
}

// Start listens on addr (":4050", "127.0.0.1:0") and serves until Shutdown.
func Start(addr string, reg *prometheus.Registry, src Source) (*Server, error) {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprintln(w, "ok") })
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, _ *http.Request) {
		if !src.Ready() {
			http.Error(w, "not ready: no dataflow running, or a stream has not joined its group", http.StatusServiceUnavailable)
			return
		}
		fmt.Fprintln(w, "ready")
	})
	mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg}))
	mux.HandleFunc("GET /api/status", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		_ = enc.Encode(src.Status())
	})
	if ps, ok := src.(PageSource); ok {
		registerPage(mux, ps) // the status page at "/" (page.go)
	}
	// Profiles, for operators chasing CPU or memory in production.
	mux.HandleFunc("GET /debug/pprof/", pprof.Index)
	mux.HandleFunc("GET /debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("GET /debug/pprof/trace", pprof.Trace)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("status server: listen on %s: %w", addr, err)
	}
	s := &Server{srv: &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}, ln: ln, done: make(chan error, 1)}
	go func() { s.done <- s.srv.Serve(ln) }()
	return s, nil
}

// Addr returns the address the server listens on.
func (s *Server) Addr() string { return s.ln.Addr().String() }

// Shutdown stops the server and waits for its goroutine.
func (s *Server) Shutdown(ctx context.Context) error {
	err := s.srv.Shutdown(ctx)
	if serr := <-s.done; serr != nil && !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	return err
}
