// Package status is Weir's status server: /healthz, /readyz, /metrics (the
// registry package metrics fills), /api/status, the status page and pprof.
package status

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Source gives the server what it shows. The engine implements it.
type Source interface {
	// Status returns a JSON-encodable description of what runs.
	Status() any
	// Ready reports whether the job runs (it has applied a dataflow) and
	// is not stalled. A Source may also have NotReadyReason() string, which
	// /readyz then writes in its 503 answer.
	Ready() bool
}

// Server is the status server on engine.ui.port: /healthz, /readyz,
// /metrics and /api/status.
type Server struct {
	srv  *http.Server
	ln   net.Listener
	done chan error
}

// Limits bound what a client can hold of the status server: a slow or idle
// client is disconnected after a timeout, and connections beyond MaxConns
// are closed at once (so a flood cannot hold every file descriptor, while
// /healthz keeps answering as long as fewer than MaxConns sockets are held).
type Limits struct {
	ReadHeader time.Duration // to read a request's headers (slowloris)
	Read       time.Duration // to read a whole request
	Write      time.Duration // to write a response
	Idle       time.Duration // a keep-alive connection waits for its next request
	// Profile is the write limit of /debug/pprof/ handlers, which stream a
	// profile for as long as asked (?seconds=, 30 s by default).
	Profile        time.Duration
	MaxConns       int
	MaxHeaderBytes int
}

// DefaultLimits are the status server's limits (docs/operations.md).
var DefaultLimits = Limits{
	ReadHeader: 10 * time.Second, Read: 30 * time.Second, Write: 30 * time.Second, Idle: 60 * time.Second,
	Profile: 5 * time.Minute, MaxConns: 1024, MaxHeaderBytes: 16 << 10,
}

// Start listens on addr (":4050", "127.0.0.1:0") and serves until Shutdown,
// with the zero Options (DefaultLimits, no profiles, no authentication,
// plain HTTP).
func Start(addr string, reg *prometheus.Registry, src Source) (*Server, error) {
	return StartWith(addr, reg, src, Options{})
}

// StartWith is Start with security options and limits (see security.go).
// Zero Limits mean DefaultLimits.
func StartWith(addr string, reg *prometheus.Registry, src Source, opts Options) (*Server, error) {
	lim := opts.Limits
	if lim == (Limits{}) {
		lim = DefaultLimits
	}
	tlsConf, err := tlsConfig(opts)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprintln(w, "ok") })
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, _ *http.Request) {
		if !src.Ready() {
			why := "no dataflow running"
			if r, ok := src.(interface{ NotReadyReason() string }); ok && r.NotReadyReason() != "" {
				why = r.NotReadyReason()
			}
			http.Error(w, "not ready: "+why, http.StatusServiceUnavailable)
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
	// Profiles, for operators chasing CPU or memory in production, when
	// asked for.
	registerProfiling(mux, opts, lim.Profile)
	registerTap(mux, opts.Tap)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("status server: listen on %s: %w", addr, err)
	}
	ln = &sheddingListener{Listener: ln, slots: make(chan struct{}, max(lim.MaxConns, 1))}
	if tlsConf != nil {
		ln = tls.NewListener(ln, tlsConf)
	}
	s := &Server{srv: &http.Server{
		Handler: harden(mux, opts), ReadHeaderTimeout: lim.ReadHeader, ReadTimeout: lim.Read, WriteTimeout: lim.Write,
		IdleTimeout: lim.Idle, MaxHeaderBytes: lim.MaxHeaderBytes,
	}, ln: ln, done: make(chan error, 1)}
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

// longWrite gives a handler its own write deadline, past the server's.
func longWrite(d time.Duration, h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		// An error means the writer cannot set deadlines; the server's
		// limit then stays, which is safe.
		_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(d))
		h(w, r)
	}
}

// sheddingListener holds at most cap(slots) connections open. A connection
// beyond it is closed at once rather than left waiting in Accept: waiting
// would let a flood of idle sockets starve /healthz, closing sheds it.
type sheddingListener struct {
	net.Listener
	slots chan struct{}
}

func (l *sheddingListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		select {
		case l.slots <- struct{}{}:
			return &slotConn{Conn: c, release: func() { <-l.slots }}, nil
		default:
			c.Close()
		}
	}
}

// slotConn gives its slot back once, when closed.
type slotConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *slotConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
