// Package dnstest runs a real DNS server on 127.0.0.1 for tests: an
// in-process github.com/miekg/dns server on a free port, over UDP and TCP,
// that serves PTR, A and AAAA records from tables the test fills, and can be
// told to answer late, to fail, or never to answer.
package dnstest

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	mdns "github.com/miekg/dns"
)

// Server is a running test DNS server. Its methods are safe for concurrent
// use, also while it serves.
type Server struct {
	// Addr is the host:port that serves both UDP and TCP.
	Addr string

	tb testing.TB

	udp, tcp *mdns.Server
	serving  sync.WaitGroup // the two serve loops
	stop     chan struct{}  // closed by Close: ends pending delays
	closed   sync.Once

	mu     sync.RWMutex
	ptr    map[string][]string // reverse name -> PTR targets
	a      map[string][]net.IP // lower-case fqdn -> IPv4 addresses
	aaaa   map[string][]net.IP // lower-case fqdn -> IPv6 addresses
	rcode  map[string]int      // lower-case qname -> forced rcode
	silent map[string]bool     // lower-case qname -> never answer
	count  map[string]int      // "TYPE name" -> queries received

	// hold, when holdN > 0, keeps queries waiting until holdN of them wait
	// at once; then all are released and holding ends.
	holdN   int
	held    int
	release chan struct{}

	delay       atomic.Int64 // nanoseconds before each answer
	allSilent   atomic.Bool
	total       atomic.Int64
	inFlight    atomic.Int64
	maxInFlight atomic.Int64
}

// Start starts a server on a free 127.0.0.1 port and stops it when the test
// ends. A test that cannot have its server fails.
func Start(tb testing.TB) *Server {
	tb.Helper()
	pc, ln, err := listenPair()
	if err != nil {
		tb.Fatalf("start test DNS server: %v", err)
	}
	s := &Server{
		tb:     tb,
		Addr:   pc.LocalAddr().String(),
		stop:   make(chan struct{}),
		ptr:    map[string][]string{},
		a:      map[string][]net.IP{},
		aaaa:   map[string][]net.IP{},
		rcode:  map[string]int{},
		silent: map[string]bool{},
		count:  map[string]int{},
	}
	started := make(chan struct{}, 2)
	notify := func() { started <- struct{}{} }
	s.udp = &mdns.Server{PacketConn: pc, Handler: s, NotifyStartedFunc: notify}
	s.tcp = &mdns.Server{Listener: ln, Handler: s, NotifyStartedFunc: notify}
	errc := make(chan error, 2)
	for _, srv := range []*mdns.Server{s.udp, s.tcp} {
		s.serving.Add(1)
		go func() {
			defer s.serving.Done()
			if err := srv.ActivateAndServe(); err != nil {
				errc <- err
			}
		}()
	}
	for range 2 {
		select {
		case <-started:
		case err := <-errc:
			s.Close()
			tb.Fatalf("serve DNS on %s: %v", s.Addr, err)
		}
	}
	tb.Cleanup(s.Close)
	return s
}

// listenPair binds UDP and TCP on the same free port, retrying when the
// port the system picked for UDP is taken for TCP.
func listenPair() (net.PacketConn, net.Listener, error) {
	var lastErr error
	for range 20 {
		pc, err := net.ListenPacket("udp", "127.0.0.1:0")
		if err != nil {
			return nil, nil, fmt.Errorf("listen udp: %w", err)
		}
		ln, err := net.Listen("tcp", pc.LocalAddr().String())
		if err == nil {
			return pc, ln, nil
		}
		pc.Close()
		lastErr = err
	}
	return nil, nil, fmt.Errorf("listen tcp beside udp: %w", lastErr)
}

// Close stops the server and waits for its goroutines. Queries waiting on a
// delay are dropped.
func (s *Server) Close() {
	s.closed.Do(func() {
		close(s.stop)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		// Shutdown waits for the handlers of the UDP server, which the
		// closed stop channel releases.
		_ = s.udp.ShutdownContext(ctx)
		_ = s.tcp.ShutdownContext(ctx)
		s.serving.Wait()
	})
}

// AddHost adds the A or AAAA record of name for each address, and the PTR
// record of each address pointing to name: a host whose name verifies.
func (s *Server) AddHost(name string, addrs ...string) {
	s.AddForward(name, addrs...)
	for _, a := range addrs {
		s.AddPTR(a, name)
	}
}

// AddPTR adds a PTR record for addr pointing to name (made fully qualified).
func (s *Server) AddPTR(addr, name string) {
	rev, err := mdns.ReverseAddr(addr)
	if err != nil {
		s.tb.Fatalf("dnstest: AddPTR(%q): %v", addr, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ptr[rev] = append(s.ptr[rev], mdns.Fqdn(name))
}

// AddForward adds A records (IPv4 addresses) and AAAA records (IPv6
// addresses) for name.
func (s *Server) AddForward(name string, addrs ...string) {
	key := strings.ToLower(mdns.Fqdn(name))
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, a := range addrs {
		ip, err := netip.ParseAddr(a)
		if err != nil {
			s.tb.Fatalf("dnstest: AddForward(%q, %q): %v", name, a, err)
		}
		if ip.Is4() {
			s.a[key] = append(s.a[key], net.IP(ip.AsSlice()))
		} else {
			s.aaaa[key] = append(s.aaaa[key], net.IP(ip.AsSlice()))
		}
	}
}

// SetDelay makes the server wait d before each answer.
func (s *Server) SetDelay(d time.Duration) { s.delay.Store(int64(d)) }

// HoldUntil makes the server hold every query it receives, unanswered,
// until n queries are held at once; then it answers them all and stops
// holding. A client that sends its queries one at a time therefore never
// gets an answer (it times out), which lets a test prove concurrency
// without measuring time.
func (s *Server) HoldUntil(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.holdN, s.held, s.release = n, 0, make(chan struct{})
}

// MaxInFlight returns the largest number of queries the server was handling
// at once (waiting on a delay or a hold included).
func (s *Server) MaxInFlight() int { return int(s.maxInFlight.Load()) }

// SetSilent makes the server drop every query without answering.
func (s *Server) SetSilent(silent bool) { s.allSilent.Store(silent) }

// SilenceAddr makes the server drop PTR queries for addr.
func (s *Server) SilenceAddr(addr string) {
	rev, err := mdns.ReverseAddr(addr)
	if err != nil {
		s.tb.Fatalf("dnstest: SilenceAddr(%q): %v", addr, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.silent[rev] = true
}

// SetRcode makes the server answer queries for name (a host name or the
// reverse name of an address given as an IP) with rcode, e.g.
// mdns.RcodeServerFailure.
func (s *Server) SetRcode(name string, rcode int) {
	if _, err := netip.ParseAddr(name); err == nil {
		name, _ = mdns.ReverseAddr(name)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rcode[strings.ToLower(mdns.Fqdn(name))] = rcode
}

// Queries returns the number of queries received of a type ("PTR", "A",
// "AAAA") for a name or address; an empty name counts every name.
func (s *Server) Queries(qtype, name string) int {
	if name != "" {
		if _, err := netip.ParseAddr(name); err == nil {
			name, _ = mdns.ReverseAddr(name)
		}
		name = strings.ToLower(mdns.Fqdn(name))
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if name != "" {
		return s.count[qtype+" "+name]
	}
	n := 0
	for k, c := range s.count {
		if strings.HasPrefix(k, qtype+" ") {
			n += c
		}
	}
	return n
}

// Total returns the number of queries received.
func (s *Server) Total() int { return int(s.total.Load()) }

// ServeDNS answers one query. It implements mdns.Handler.
func (s *Server) ServeDNS(w mdns.ResponseWriter, req *mdns.Msg) {
	if len(req.Question) != 1 {
		m := new(mdns.Msg)
		m.SetRcode(req, mdns.RcodeFormatError)
		_ = w.WriteMsg(m)
		return
	}
	q := req.Question[0]
	name := strings.ToLower(q.Name)
	qtype := mdns.TypeToString[q.Qtype]
	s.total.Add(1)

	s.mu.Lock()
	s.count[qtype+" "+name]++
	silent := s.silent[name] && q.Qtype == mdns.TypePTR
	rcode, forced := s.rcode[name]
	s.mu.Unlock()

	if silent || s.allSilent.Load() {
		return
	}
	// The in-flight count drops before the answer is written: once a
	// client has its answer it may send its next query, which must not
	// find this one still counted.
	n := s.inFlight.Add(1)
	var leave sync.Once
	defer leave.Do(func() { s.inFlight.Add(-1) })
	write := func(m *mdns.Msg) {
		leave.Do(func() { s.inFlight.Add(-1) })
		_ = w.WriteMsg(m)
	}
	for {
		m := s.maxInFlight.Load()
		if n <= m || s.maxInFlight.CompareAndSwap(m, n) {
			break
		}
	}
	s.mu.Lock()
	var hold chan struct{}
	if s.holdN > 0 {
		hold = s.release
		if s.held++; s.held >= s.holdN {
			close(s.release)
			s.holdN = 0
		}
	}
	s.mu.Unlock()
	if hold != nil {
		select {
		case <-hold:
		case <-s.stop:
			return
		}
	}
	if d := time.Duration(s.delay.Load()); d > 0 {
		t := time.NewTimer(d)
		select {
		case <-t.C:
		case <-s.stop:
			t.Stop()
			return
		}
	}

	m := new(mdns.Msg)
	m.SetReply(req)
	m.Authoritative = true
	m.RecursionAvailable = true
	if forced {
		m.Rcode = rcode
		write(m)
		return
	}
	m.Answer, m.Rcode = s.answer(q)
	size := mdns.MinMsgSize
	if o := req.IsEdns0(); o != nil {
		size = int(o.UDPSize())
		m.SetEdns0(o.UDPSize(), false)
	}
	if w.LocalAddr().Network() == "udp" {
		// Like a real server, cut an answer too big for the client's UDP
		// buffer and set the TC bit, so that the client asks over TCP.
		m.Truncate(size)
	}
	write(m)
}

// answer returns the records for q, or NXDOMAIN when the name has no
// record of any type.
func (s *Server) answer(q mdns.Question) ([]mdns.RR, int) {
	name := strings.ToLower(q.Name)
	hdr := mdns.RR_Header{Name: q.Name, Class: mdns.ClassINET, Ttl: 300, Rrtype: q.Qtype}
	s.mu.RLock()
	defer s.mu.RUnlock()
	var rrs []mdns.RR
	switch q.Qtype {
	case mdns.TypePTR:
		for _, t := range s.ptr[name] {
			rrs = append(rrs, &mdns.PTR{Hdr: hdr, Ptr: t})
		}
	case mdns.TypeA:
		for _, ip := range s.a[name] {
			rrs = append(rrs, &mdns.A{Hdr: hdr, A: ip})
		}
	case mdns.TypeAAAA:
		for _, ip := range s.aaaa[name] {
			rrs = append(rrs, &mdns.AAAA{Hdr: hdr, AAAA: ip})
		}
	}
	if len(rrs) > 0 {
		return rrs, mdns.RcodeSuccess
	}
	_, hasPTR := s.ptr[name]
	_, hasA := s.a[name]
	_, hasAAAA := s.aaaa[name]
	if hasPTR || hasA || hasAAAA {
		return nil, mdns.RcodeSuccess // the name exists, without this type
	}
	return nil, mdns.RcodeNameError
}
