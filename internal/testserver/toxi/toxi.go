// Package toxi puts Shopify's Toxiproxy between Weir and a server in tests:
// a real TCP proxy on a free 127.0.0.1 port, run in the test process from
// the Toxiproxy library, with helpers for the faults Weir must survive
// (latency, bandwidth, connection resets, blackholes and partitions).
//
// A Kafka client reconnects to the address the broker advertises, not to
// its seed, so a Kafka broker behind the proxy must advertise the proxy's
// address: Behind gives kfake a listen function whose listener reports the
// proxy's address as its own.
package toxi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"sync"
	"testing"

	toxiproxy "github.com/Shopify/toxiproxy/v2"
	"github.com/rs/zerolog"
)

var quiet sync.Once

// Server is a Toxiproxy server with no HTTP API: the test drives its
// proxies through this package. It is safe for concurrent use.
type Server struct {
	api *toxiproxy.ApiServer
}

// New returns a Toxiproxy server whose proxies are stopped when the test
// ends.
func New(t testing.TB) *Server {
	t.Helper()
	// The toxics log every interrupted chunk at trace level through
	// zerolog's context loggers, which the server's Nop logger does not
	// reach; only warnings and errors belong in a test's output.
	quiet.Do(func() { zerolog.SetGlobalLevel(zerolog.WarnLevel) })
	s := &Server{api: toxiproxy.NewServer(toxiproxy.NewMetricsContainer(nil), zerolog.Nop())}
	t.Cleanup(func() { _ = s.api.Collection.Clear() })
	return s
}

// Proxy is one proxy: clients dial Addr, the proxy dials the upstream.
type Proxy struct {
	p *toxiproxy.Proxy
}

// Proxy starts a proxy named name on a free 127.0.0.1 port in front of
// upstream.
func (s *Server) Proxy(t testing.TB, name, upstream string) *Proxy {
	t.Helper()
	p, err := s.NewProxy(name, upstream)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// NewProxy is Proxy returning an error instead of failing the test.
func (s *Server) NewProxy(name, upstream string) (*Proxy, error) {
	p := toxiproxy.NewProxy(s.api, name, "127.0.0.1:0", upstream)
	if err := s.api.Collection.Add(p, true); err != nil {
		return nil, fmt.Errorf("start toxiproxy %s in front of %s: %w", name, upstream, err)
	}
	return &Proxy{p: p}, nil
}

// Addr is the address clients dial: the proxy's own.
func (p *Proxy) Addr() string {
	p.p.Lock()
	defer p.p.Unlock()
	return p.p.Listen
}

// Toxic is a fault on a proxy, removed by Remove.
type Toxic struct {
	p    *Proxy
	name string
}

// add adds a toxic of typ with attributes on one direction of the proxy:
// "downstream" is what the server sends to the client, "upstream" what the
// client sends to the server.
func (p *Proxy) add(t testing.TB, name, typ, stream string, attrs map[string]any) *Toxic {
	t.Helper()
	body, err := json.Marshal(map[string]any{"name": name, "type": typ, "stream": stream, "toxicity": 1.0, "attributes": attrs})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.p.Toxics.AddToxicJson(bytes.NewReader(body)); err != nil {
		t.Fatalf("add toxic %s to proxy %s: %v", name, p.p.Name, err)
	}
	return &Toxic{p: p, name: name}
}

// Remove takes the toxic off its proxy; the connections it held go on.
func (x *Toxic) Remove(t testing.TB) {
	t.Helper()
	if err := x.p.p.Toxics.RemoveToxic(context.Background(), x.name); err != nil {
		t.Fatalf("remove toxic %s from proxy %s: %v", x.name, x.p.p.Name, err)
	}
}

// toxics are the toxics of one fault, added and removed together.
type toxics []*Toxic

// Remove removes every toxic of the fault.
func (xs toxics) Remove(t testing.TB) {
	t.Helper()
	for _, x := range xs {
		x.Remove(t)
	}
}

// Fault is a fault made of one or more toxics.
type Fault interface{ Remove(t testing.TB) }

// Latency delays every chunk by latency plus or minus jitter milliseconds,
// in both directions.
func (p *Proxy) Latency(t testing.TB, latencyMs, jitterMs int) Fault {
	t.Helper()
	a := map[string]any{"latency": latencyMs, "jitter": jitterMs}
	return toxics{p.add(t, "latency_down", "latency", "downstream", a), p.add(t, "latency_up", "latency", "upstream", a)}
}

// Bandwidth limits both directions to rateKB kilobytes a second.
func (p *Proxy) Bandwidth(t testing.TB, rateKB int) Fault {
	t.Helper()
	a := map[string]any{"rate": rateKB}
	return toxics{p.add(t, "bandwidth_down", "bandwidth", "downstream", a), p.add(t, "bandwidth_up", "bandwidth", "upstream", a)}
}

// ResetPeer resets (TCP RST) every connection timeoutMs milliseconds after
// it carries data, and every connection made while the toxic is on: the
// peer sees "connection reset" in the middle of its requests.
func (p *Proxy) ResetPeer(t testing.TB, timeoutMs int) Fault {
	t.Helper()
	return toxics{p.add(t, "reset_peer", "reset_peer", "upstream", map[string]any{"timeout": timeoutMs})}
}

// Blackhole makes the proxy accept and hold connections but pass no data
// either way, and never close them: the server seems to hang.
func (p *Proxy) Blackhole(t testing.TB) Fault {
	t.Helper()
	a := map[string]any{"timeout": 0}
	return toxics{p.add(t, "blackhole_down", "timeout", "downstream", a), p.add(t, "blackhole_up", "timeout", "upstream", a)}
}

// SlowClose delays the close of each connection by delayMs milliseconds.
func (p *Proxy) SlowClose(t testing.TB, delayMs int) Fault {
	t.Helper()
	return toxics{p.add(t, "slow_close", "slow_close", "downstream", map[string]any{"delay": delayMs})}
}

// Disable partitions the link: the proxy closes every connection and
// refuses new ones (its port is closed) until Enable.
func (p *Proxy) Disable(t testing.TB) {
	t.Helper()
	p.p.Stop()
}

// Enable heals a partition: the proxy listens on the same address again.
func (p *Proxy) Enable(t testing.TB) {
	t.Helper()
	if err := p.p.Start(); err != nil && err != toxiproxy.ErrProxyAlreadyStarted {
		t.Fatalf("re-enable proxy %s on %s: %v", p.p.Name, p.Addr(), err)
	}
}

// Behind starts servers behind a proxy: its Listen method is a listen
// function (kfake.ListenFn takes one) that listens on a free port and
// returns a listener whose Addr is the proxy's, so the server advertises
// the proxy and every client connection goes through it.
type Behind struct {
	s    *Server
	name string

	mu    sync.Mutex
	proxy *Proxy
}

// Behind returns a listen function for one server behind a proxy named
// name.
func (s *Server) Behind(name string) *Behind { return &Behind{s: s, name: name} }

// Listen listens on a free 127.0.0.1 port and starts the proxy in front of
// it. It may be called once.
func (b *Behind) Listen(network, _ string) (net.Listener, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.proxy != nil {
		return nil, fmt.Errorf("proxy %s already has a server behind it", b.name)
	}
	ln, err := net.Listen(network, "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p, err := b.s.NewProxy(b.name, ln.Addr().String())
	if err != nil {
		ln.Close()
		return nil, err
	}
	addr, err := net.ResolveTCPAddr("tcp", p.Addr())
	if err != nil {
		ln.Close()
		return nil, err
	}
	b.proxy = p
	return advertised{Listener: ln, addr: addr}, nil
}

// Proxy returns the proxy, nil before Listen.
func (b *Behind) Proxy() *Proxy {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.proxy
}

// advertised is a listener that reports the proxy's address as its own.
type advertised struct {
	net.Listener
	addr net.Addr
}

func (a advertised) Addr() net.Addr { return a.addr }
