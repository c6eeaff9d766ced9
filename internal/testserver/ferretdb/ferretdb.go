// Package ferretdb runs a real MongoDB-protocol server for tests: FerretDB
// v1.24 through its embeddable package, in-process, on a free 127.0.0.1
// port, with a SQLite backend in a temporary directory (or PostgreSQL when
// given a URL). A server can be stopped and started again on the same port
// with the same data, which is how tests take the database down in the
// middle of a run.
//
// Known limits of FerretDB v1.24 that tests must work around (never the
// product):
//
//   - An unacknowledged write (w:0) gets a reply it should not send, which
//     corrupts the driver's connection: do not write with w:0 against it.
//   - One update command that matches about 100 existing documents (the
//     backend's connection pool size) hangs that database: keep upsert
//     bulks that may replay existing documents below 100.
//   - With SQLite, lookups by _id scan the whole collection, so upserts slow
//     down as a collection grows; the PostgreSQL backend is much faster.
//
// FerretDB's New writes a package-level version variable, so servers must
// not be started concurrently in one process, nor while another server of
// the process serves requests. Tests that use this package do not run in
// parallel with each other.
package ferretdb

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"os"
	"sync"
	"testing"
	"time"

	fdb "github.com/FerretDB/FerretDB/ferretdb"
)

// Options configure a server. The zero value is a SQLite server in a new
// temporary directory on a free port, with FerretDB's logs discarded.
type Options struct {
	// Dir is the SQLite data directory; empty means a new temporary one,
	// removed by Close.
	Dir string
	// PostgreSQLURL selects the PostgreSQL backend instead of SQLite.
	PostgreSQLURL string
	// Logger receives FerretDB's own logs; nil discards them (it logs every
	// connection, and at debug level every message).
	Logger *slog.Logger
}

// Server is one FerretDB server. Its methods are safe for concurrent use.
type Server struct {
	opts    Options
	addr    string
	tempDir bool

	mu     sync.Mutex
	cancel context.CancelFunc
	done   chan struct{}
}

// startMu serializes fdb.New, which writes a package-level variable.
var startMu sync.Mutex

// Start starts a server and returns once it accepts connections.
func Start(opts Options) (*Server, error) {
	s := &Server{opts: opts}
	if s.opts.Logger == nil {
		s.opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if s.opts.PostgreSQLURL == "" && s.opts.Dir == "" {
		dir, err := os.MkdirTemp("", "weir-ferretdb-")
		if err != nil {
			return nil, fmt.Errorf("make FerretDB data directory: %w", err)
		}
		s.opts.Dir, s.tempDir = dir, true
	}
	if err := s.start("127.0.0.1:0"); err != nil {
		s.removeTemp()
		return nil, err
	}
	return s, nil
}

// New starts a server for a test and closes it when the test ends. It fails
// the test if the server cannot start.
func New(tb testing.TB) *Server {
	tb.Helper()
	s, err := Start(Options{})
	if err != nil {
		tb.Fatalf("start FerretDB: %v", err)
	}
	tb.Cleanup(func() {
		if err := s.Close(); err != nil {
			tb.Errorf("close FerretDB: %v", err)
		}
	})
	return s
}

// start runs a FerretDB instance listening on addr. The caller holds no
// lock; s.mu guards the running instance.
func (s *Server) start(addr string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cancel != nil {
		return errors.New("FerretDB is already running")
	}
	conf := &fdb.Config{
		Listener: fdb.ListenerConfig{TCP: addr},
		Logger:   s.opts.Logger,
		Handler:  "sqlite",
	}
	if s.opts.PostgreSQLURL != "" {
		conf.Handler, conf.PostgreSQLURL = "postgresql", s.opts.PostgreSQLURL
	} else {
		conf.SQLiteURL = "file:" + s.opts.Dir + "/"
	}
	// Right after a stop the port may still be held for a moment by the
	// closing listener; retry the bind a bounded number of times.
	var inst *fdb.FerretDB
	var err error
	for try := 0; try < 50; try++ {
		startMu.Lock()
		inst, err = fdb.New(conf)
		startMu.Unlock()
		if err == nil || addr == "127.0.0.1:0" {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		return fmt.Errorf("start FerretDB on %s: %w", addr, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = inst.Run(ctx) // returns nil once ctx is cancelled and every connection is closed
	}()
	// New has bound the listener, so the address is known at once; it is
	// read from the URI because FerretDB exposes nothing else.
	uri := inst.MongoDBURI()
	host, port, err := hostPort(uri)
	if err != nil {
		cancel()
		<-done
		return err
	}
	s.addr = net.JoinHostPort(host, port)
	s.cancel, s.done = cancel, done
	return nil
}

func hostPort(uri string) (string, string, error) {
	u, err := url.Parse(uri)
	if err != nil {
		return "", "", fmt.Errorf("parse FerretDB URI: %w", err)
	}
	h, p, err := net.SplitHostPort(u.Host)
	if err != nil {
		return "", "", fmt.Errorf("parse FerretDB address %q: %w", u.Host, err)
	}
	return h, p, nil
}

// Addr returns the host:port the server listens on; it stays the same
// across Stop and Restart.
func (s *Server) Addr() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addr
}

// URI returns a MongoDB connection URI for the server.
func (s *Server) URI() string { return "mongodb://" + s.Addr() + "/" }

// Running reports whether the server is up.
func (s *Server) Running() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cancel != nil
}

// Stop stops the server: it stops listening at once, gives open
// connections FerretDB's grace period (a few seconds) and returns once
// every connection is closed. Data stays for Restart.
func (s *Server) Stop() {
	s.mu.Lock()
	cancel, done := s.cancel, s.done
	s.cancel, s.done = nil, nil
	s.mu.Unlock()
	if cancel == nil {
		return
	}
	cancel()
	<-done
}

// Restart starts a stopped server again on the same address with the same
// data.
func (s *Server) Restart() error { return s.start(s.Addr()) }

// Close stops the server and removes its temporary data directory.
func (s *Server) Close() error {
	s.Stop()
	return s.removeTemp()
}

func (s *Server) removeTemp() error {
	if !s.tempDir {
		return nil
	}
	if err := os.RemoveAll(s.opts.Dir); err != nil {
		return fmt.Errorf("remove FerretDB data directory: %w", err)
	}
	return nil
}
