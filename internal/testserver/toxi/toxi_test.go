package toxi

import (
	"bufio"
	"errors"
	"io"
	"net"
	"syscall"
	"testing"
	"time"
)

// echo starts a line echo server and returns its address.
func echo(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				_, _ = io.Copy(c, c)
			}()
		}
	}()
	return ln.Addr().String()
}

// roundTrip sends a line through addr and reads it back.
func roundTrip(addr string) error {
	c, err := net.DialTimeout("tcp", addr, 2*time.Second)
	if err != nil {
		return err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(2 * time.Second))
	if _, err := c.Write([]byte("ping\n")); err != nil {
		return err
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		return err
	}
	if line != "ping\n" {
		return errors.New("echoed " + line)
	}
	return nil
}

func TestProxyFaultsAndHeal(t *testing.T) {
	s := New(t)
	p := s.Proxy(t, "echo", echo(t))
	if err := roundTrip(p.Addr()); err != nil {
		t.Fatalf("through the proxy: %v", err)
	}

	f := p.Blackhole(t)
	var ne net.Error
	if err := roundTrip(p.Addr()); !errors.As(err, &ne) || !ne.Timeout() {
		t.Errorf("blackhole: %v, want a timeout", err)
	}
	f.Remove(t)

	f = p.ResetPeer(t, 0)
	if err := roundTrip(p.Addr()); !errors.Is(err, syscall.ECONNRESET) && !errors.Is(err, io.EOF) {
		t.Errorf("reset_peer: %v, want a connection reset", err)
	}
	f.Remove(t)

	addr := p.Addr()
	p.Disable(t)
	if err := roundTrip(addr); !errors.Is(err, syscall.ECONNREFUSED) {
		t.Errorf("partition: %v, want connection refused", err)
	}
	p.Enable(t)
	if p.Addr() != addr {
		t.Errorf("healed on %s, want the same address %s", p.Addr(), addr)
	}
	if err := roundTrip(addr); err != nil {
		t.Errorf("after the heal: %v", err)
	}
}

func TestBehindAdvertisesTheProxy(t *testing.T) {
	s := New(t)
	b := s.Behind("srv")
	ln, err := b.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if ln.Addr().String() != b.Proxy().Addr() {
		t.Fatalf("listener reports %s, proxy is %s", ln.Addr(), b.Proxy().Addr())
	}
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		_, _ = io.Copy(c, c)
	}()
	if err := roundTrip(ln.Addr().String()); err != nil {
		t.Fatalf("through the advertised address: %v", err)
	}
}
