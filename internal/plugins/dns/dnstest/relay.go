package dnstest

import (
	"errors"
	"math/rand/v2"
	"net"
	"sync"
	"testing"
	"time"
)

// Relay is a UDP relay on a free 127.0.0.1 port in front of a DNS server,
// with the faults of a network link. It exists because Toxiproxy proxies
// TCP only, and a resolver asks over UDP first (TCP only for a truncated
// answer): the faults of the UDP link need a relay of their own. The faults
// are the ones UDP can have: latency with jitter, a bandwidth limit (each
// datagram waits until the link has carried the ones before it), a
// blackhole (datagrams are dropped) and a partition (the port is closed,
// so the client's socket reports "connection refused", until Heal). A
// reset and a slow close have no meaning without a connection.
//
// The relay sends every query upstream from one socket under an id of its
// own, and gives the answer back to the client that asked with the
// client's id, so that any number of clients share one socket.
//
// A Relay is safe for concurrent use; it stops when the test ends.
type Relay struct {
	// Addr is the address clients send to.
	Addr string

	tb   testing.TB
	up   *net.UDPConn // connected to the server
	stop chan struct{}

	mu        sync.Mutex
	conn      *net.UDPConn // nil while partitioned
	latency   time.Duration
	jitter    time.Duration
	rate      int       // bytes a second; 0 for no limit
	busyUntil time.Time // when the limited link is free again
	drop      bool
	nextID    uint16
	asked     map[uint16]query // relay id -> who asked
	closed    bool

	wg sync.WaitGroup // the read loops and the delayed sends
}

// query is a client's query on its way: where the answer goes back.
type query struct {
	client *net.UDPAddr
	id     [2]byte
}

// StartRelay starts a relay in front of the UDP server at upstream.
func StartRelay(tb testing.TB, upstream string) *Relay {
	tb.Helper()
	ua, err := net.ResolveUDPAddr("udp", upstream)
	if err != nil {
		tb.Fatalf("dnstest: relay upstream %q: %v", upstream, err)
	}
	up, err := net.DialUDP("udp", nil, ua)
	if err != nil {
		tb.Fatalf("dnstest: relay dial %s: %v", upstream, err)
	}
	c, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		up.Close()
		tb.Fatalf("dnstest: start relay: %v", err)
	}
	r := &Relay{Addr: c.LocalAddr().String(), tb: tb, up: up, stop: make(chan struct{}), asked: map[uint16]query{}}
	r.serve(c)
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		buf := make([]byte, 65535)
		for {
			n, err := up.Read(buf)
			if err != nil {
				if errors.Is(err, net.ErrClosed) {
					return
				}
				continue // a refused datagram: the next one may pass
			}
			if n >= 2 {
				r.fromServer(append([]byte(nil), buf[:n]...))
			}
		}
	}()
	tb.Cleanup(r.close)
	return r
}

// serve makes c the relay's socket and reads from it until it is closed.
func (r *Relay) serve(c *net.UDPConn) {
	r.conn = c
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		buf := make([]byte, 65535)
		for {
			n, from, err := c.ReadFromUDP(buf)
			if err != nil {
				return // closed by Partition or close
			}
			if n >= 2 {
				r.fromClient(from, append([]byte(nil), buf[:n]...))
			}
		}
	}()
}

// fromClient passes a client's query upstream under a relay id.
func (r *Relay) fromClient(from *net.UDPAddr, msg []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return
	}
	r.nextID++
	id := r.nextID
	r.asked[id] = query{client: from, id: [2]byte{msg[0], msg[1]}}
	msg[0], msg[1] = byte(id>>8), byte(id)
	up := r.up
	r.sendLocked(msg, func(b []byte) { _, _ = up.Write(b) })
}

// fromServer passes an answer back to the client that asked, from the
// relay's port, with the client's id.
func (r *Relay) fromServer(msg []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	id := uint16(msg[0])<<8 | uint16(msg[1])
	q, ok := r.asked[id]
	if !ok || r.closed {
		return
	}
	delete(r.asked, id)
	if r.conn == nil {
		return // partitioned: the answer is lost
	}
	msg[0], msg[1] = q.id[0], q.id[1]
	c := r.conn
	r.sendLocked(msg, func(b []byte) { _, _ = c.WriteToUDP(b, q.client) })
}

// sendLocked sends msg with send after the faults on: dropped in a
// blackhole, else after the latency and the wait for bandwidth.
func (r *Relay) sendLocked(msg []byte, send func([]byte)) {
	if r.drop {
		return
	}
	delay := r.latency
	if r.jitter > 0 {
		delay += time.Duration(rand.Int64N(int64(2*r.jitter))) - r.jitter
	}
	if r.rate > 0 {
		now := time.Now()
		start := now
		if r.busyUntil.After(now) {
			start = r.busyUntil
		}
		r.busyUntil = start.Add(time.Duration(len(msg)) * time.Second / time.Duration(r.rate))
		delay += r.busyUntil.Sub(now)
	}
	if delay <= 0 {
		send(msg)
		return
	}
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		t := time.NewTimer(delay)
		defer t.Stop()
		select {
		case <-t.C:
			send(msg)
		case <-r.stop:
		}
	}()
}

// Latency delays each datagram, both ways, by latency plus or minus
// jitter.
func (r *Relay) Latency(latency, jitter time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.latency, r.jitter = latency, jitter
}

// Bandwidth limits the link to bytesPerSecond, both ways together.
func (r *Relay) Bandwidth(bytesPerSecond int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.rate, r.busyUntil = bytesPerSecond, time.Time{}
}

// Blackhole drops every datagram, both ways, until Heal.
func (r *Relay) Blackhole() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.drop = true
}

// Partition closes the relay's port until Heal: a client's datagrams are
// refused, and answers on their way are lost.
func (r *Relay) Partition() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.conn != nil {
		_ = r.conn.Close()
		r.conn = nil
	}
}

// Heal removes every fault: the port is open again on the same address,
// and datagrams pass at once.
func (r *Relay) Heal() {
	r.tb.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.latency, r.jitter, r.rate, r.drop = 0, 0, 0, false
	if r.conn == nil && !r.closed {
		a, err := net.ResolveUDPAddr("udp", r.Addr)
		if err == nil {
			var c *net.UDPConn
			if c, err = net.ListenUDP("udp", a); err == nil {
				r.serve(c)
				return
			}
		}
		r.tb.Errorf("dnstest: reopen relay on %s: %v", r.Addr, err)
	}
}

// close stops the relay and waits for its goroutines.
func (r *Relay) close() {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return
	}
	r.closed = true
	close(r.stop)
	if r.conn != nil {
		_ = r.conn.Close()
		r.conn = nil
	}
	_ = r.up.Close()
	r.mu.Unlock()
	r.wg.Wait()
}
