package status_test

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/weir-streams/weir/internal/status"
)

func startLimited(t *testing.T, lim status.Limits) *status.Server {
	t.Helper()
	s, err := status.StartWith("127.0.0.1:0", prometheus.NewRegistry(), source{ready: true}, status.Options{Limits: lim})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = s.Shutdown(ctx)
	})
	return s
}

// TestIdleKeepAliveConnectionsClosed: 500 clients make one keep-alive
// request each and stay idle; the server closes all 500 after the idle
// timeout (the read below ends with EOF, not with its own deadline).
func TestIdleKeepAliveConnectionsClosed(t *testing.T) {
	lim := status.DefaultLimits
	lim.Idle = 300 * time.Millisecond
	s := startLimited(t, lim)
	const n = 500
	var wg sync.WaitGroup
	closed := make(chan error, n)
	for range n {
		c, err := net.Dial("tcp", s.Addr())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
				closed <- err
				return
			}
			br := bufio.NewReader(c)
			resp, err := http.ReadResponse(br, nil)
			if err != nil {
				closed <- err
				return
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			// A generous guard so a broken server fails the test instead of
			// hanging it; the server's idle timeout is far shorter.
			_ = c.SetReadDeadline(time.Now().Add(60 * time.Second))
			_, err = br.ReadByte()
			closed <- err
		}()
	}
	wg.Wait()
	close(closed)
	eof := 0
	for err := range closed {
		if err == io.EOF {
			eof++
		} else {
			t.Errorf("connection not closed by the server: %v", err)
		}
	}
	if eof != n {
		t.Fatalf("%d of %d idle connections closed by the server", eof, n)
	}
}

// TestHealthzDuringSlowloris: 500 sockets send half a request and stall;
// /healthz still answers on a new connection, and the server drops the
// stalled sockets after the header timeout.
func TestHealthzDuringSlowloris(t *testing.T) {
	lim := status.DefaultLimits
	lim.ReadHeader = 500 * time.Millisecond
	s := startLimited(t, lim)
	var conns []net.Conn
	for range 500 {
		c, err := net.Dial("tcp", s.Addr())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		if _, err := io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: "); err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
	}
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 30 * time.Second}
	for range 3 {
		resp, err := client.Get("http://" + s.Addr() + "/healthz")
		if err != nil {
			t.Fatalf("/healthz during slowloris: %v", err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || string(body) != "ok\n" {
			t.Fatalf("/healthz: %d %q", resp.StatusCode, body)
		}
	}
	dropped := 0
	for _, c := range conns {
		_ = c.SetReadDeadline(time.Now().Add(60 * time.Second))
		// The server answers 408 or just closes; either way the read ends
		// with EOF once the connection is gone.
		if _, err := io.Copy(io.Discard, c); err == nil {
			dropped++
		}
	}
	if dropped != len(conns) {
		t.Fatalf("%d of %d stalled sockets dropped by the server", dropped, len(conns))
	}
}

// TestConnectionsBeyondCapShed: with a cap of 10 held by idle sockets, an
// 11th connection is closed at once rather than queued.
func TestConnectionsBeyondCapShed(t *testing.T) {
	lim := status.DefaultLimits
	lim.MaxConns = 10
	s := startLimited(t, lim)
	for range 10 {
		c, err := net.Dial("tcp", s.Addr())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		if _, err := io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
			t.Fatal(err)
		}
		if _, err := http.ReadResponse(bufio.NewReader(c), nil); err != nil {
			t.Fatal(err)
		}
	}
	c, err := net.Dial("tcp", s.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetReadDeadline(time.Now().Add(30 * time.Second))
	if _, err := c.Read(make([]byte, 1)); err != io.EOF {
		t.Fatalf("connection beyond the cap: read %v, want EOF", err)
	}
}
