package dns

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"time"

	mdns "github.com/miekg/dns"
)

// ErrNotFound means a server answered that the record does not exist: the
// name does not exist (NXDOMAIN) or has no record of the type asked (an
// empty NOERROR answer). It is an answer, not a failure.
var ErrNotFound = errors.New("no such record")

// Resolver sends DNS queries itself to a fixed list of servers, with
// github.com/miekg/dns, rather than through Go's net.Resolver: it never
// reads /etc/hosts, never appends resolv.conf search domains, and each query
// is bounded by the caller's context deadline alone.
//
// A Resolver is safe for concurrent use.
type Resolver struct {
	servers []string
	udp     *mdns.Client
	tcp     *mdns.Client
}

// NewResolver returns a resolver that asks servers (host:port) in order,
// moving to the next one when a server does not answer in its share of the
// time or answers with a failure (SERVFAIL, REFUSED...).
func NewResolver(servers []string) (*Resolver, error) {
	if len(servers) == 0 {
		return nil, errors.New("no DNS server to ask")
	}
	return &Resolver{
		servers: append([]string(nil), servers...),
		udp:     &mdns.Client{Net: "udp", UDPSize: ednsSize},
		tcp:     &mdns.Client{Net: "tcp"},
	}, nil
}

// Servers returns the servers asked, in order.
func (r *Resolver) Servers() []string { return append([]string(nil), r.servers...) }

// ednsSize is the UDP payload size we advertise: the size recommended by DNS
// flag day 2020, which avoids IP fragmentation.
const ednsSize = 1232

// SystemServers reads the nameservers of a resolv.conf file (normally
// /etc/resolv.conf), as host:port addresses.
func SystemServers(path string) ([]string, error) {
	cc, err := mdns.ClientConfigFromFile(path)
	if err != nil {
		return nil, fmt.Errorf("read DNS servers from %s: %w", path, err)
	}
	port := cc.Port
	if port == "" {
		port = "53"
	}
	var out []string
	for _, s := range cc.Servers {
		out = append(out, net.JoinHostPort(s, port))
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("read DNS servers from %s: no nameserver line", path)
	}
	return out, nil
}

// LookupPTR returns the names of addr's PTR records, fully qualified (with
// their trailing dot). ErrNotFound means the address has no name.
func (r *Resolver) LookupPTR(ctx context.Context, addr netip.Addr) ([]string, error) {
	q := reverseName(addr)
	resp, err := r.query(ctx, q, mdns.TypePTR)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, rr := range resp.Answer {
		// The answer may hold a CNAME chain (RFC 2317 classless
		// delegation) before the PTR records; only the PTRs name hosts.
		if ptr, ok := rr.(*mdns.PTR); ok && ptr.Ptr != "" && ptr.Ptr != "." {
			names = append(names, ptr.Ptr)
		}
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("PTR %s: %w", q, ErrNotFound)
	}
	return names, nil
}

// LookupAddrs returns the addresses of name's records of type qtype
// (mdns.TypeA or mdns.TypeAAAA). name must be fully qualified. ErrNotFound
// means the name has no such record.
func (r *Resolver) LookupAddrs(ctx context.Context, name string, qtype uint16) ([]netip.Addr, error) {
	resp, err := r.query(ctx, name, qtype)
	if err != nil {
		return nil, err
	}
	var addrs []netip.Addr
	for _, rr := range resp.Answer {
		// Records of every owner in a CNAME chain count: a recursive
		// server answers an alias with the chain and the final records.
		switch rr := rr.(type) {
		case *mdns.A:
			if a, ok := netip.AddrFromSlice(rr.A.To4()); ok && qtype == mdns.TypeA {
				addrs = append(addrs, a)
			}
		case *mdns.AAAA:
			if a, ok := netip.AddrFromSlice(rr.AAAA.To16()); ok && qtype == mdns.TypeAAAA {
				addrs = append(addrs, a)
			}
		}
	}
	if len(addrs) == 0 {
		return nil, fmt.Errorf("%s %s: %w", mdns.TypeToString[qtype], name, ErrNotFound)
	}
	return addrs, nil
}

// query asks the servers in turn until one answers with NOERROR or
// NXDOMAIN. Each server gets an equal share of the time left, so that a dead
// first server does not use up the whole deadline of ctx.
func (r *Resolver) query(ctx context.Context, name string, qtype uint16) (*mdns.Msg, error) {
	m := new(mdns.Msg)
	m.SetQuestion(name, qtype)
	m.SetEdns0(ednsSize, false)
	label := mdns.TypeToString[qtype] + " " + name
	var errs []error
	for i, srv := range r.servers {
		actx, cancel := ctx, context.CancelFunc(func() {})
		// The last server gets all the time left, so that running out of
		// it is the caller's deadline and reads as such.
		if dl, ok := ctx.Deadline(); ok && i < len(r.servers)-1 {
			share := time.Until(dl) / time.Duration(len(r.servers)-i)
			actx, cancel = context.WithTimeout(ctx, share)
		}
		resp, err := r.exchange(actx, m, srv)
		cancel()
		if err != nil {
			errs = append(errs, fmt.Errorf("ask %s: %w", srv, err))
			if ctx.Err() != nil {
				break
			}
			continue
		}
		switch resp.Rcode {
		case mdns.RcodeSuccess:
			return resp, nil
		case mdns.RcodeNameError:
			return nil, fmt.Errorf("%s: %s answered NXDOMAIN: %w", label, srv, ErrNotFound)
		default:
			errs = append(errs, fmt.Errorf("%s answered %s", srv, rcodeName(resp.Rcode)))
		}
	}
	err := errors.Join(errs...)
	if ctx.Err() != nil {
		// Keep the context's error in the chain, so callers can tell a
		// timeout from a cancellation with errors.Is.
		err = errors.Join(err, ctx.Err())
	}
	return nil, fmt.Errorf("%s: %w", label, err)
}

// exchange sends one query over UDP, and again over TCP if the UDP answer
// was truncated.
func (r *Resolver) exchange(ctx context.Context, m *mdns.Msg, srv string) (*mdns.Msg, error) {
	if _, ok := ctx.Deadline(); !ok {
		// miekg/dns bounds reads by a deadline; without one, a silent
		// server would hold the read for the client's default timeouts.
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
	}
	resp, err := r.exchangeOver(ctx, r.udp, m, srv)
	if err == nil && resp.Truncated {
		resp, err = r.exchangeOver(ctx, r.tcp, m, srv)
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("%w (%v)", ctx.Err(), err)
		}
		return nil, err
	}
	// miekg/dns already drops answers whose id differs; also refuse an
	// answer to another question, which a confused or hostile server could
	// send with the right id.
	if len(resp.Question) != 1 || !strings.EqualFold(resp.Question[0].Name, m.Question[0].Name) || resp.Question[0].Qtype != m.Question[0].Qtype {
		return nil, errors.New("answer does not match the question")
	}
	return resp, nil
}

// exchangeOver sends one query on a connection of its own. miekg/dns
// watches only the context's deadline, so a cancellation (a stream
// stopping) closes the connection to end the read at once.
func (r *Resolver) exchangeOver(ctx context.Context, c *mdns.Client, m *mdns.Msg, srv string) (*mdns.Msg, error) {
	co, err := c.DialContext(ctx, srv)
	if err != nil {
		return nil, err
	}
	closed := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		_ = co.Close()
		close(closed)
	})
	resp, _, err := c.ExchangeWithConnContext(ctx, m, co)
	if stop() {
		_ = co.Close()
	} else {
		<-closed // the closing function ran or runs: wait for it
	}
	return resp, err
}

func rcodeName(rc int) string {
	if s, ok := mdns.RcodeToString[rc]; ok {
		return s
	}
	return "rcode " + strconv.Itoa(rc)
}

// reverseName returns the in-addr.arpa or ip6.arpa name of addr.
func reverseName(addr netip.Addr) string {
	var b strings.Builder
	if addr.Is4() {
		a := addr.As4()
		b.Grow(29)
		for i := 3; i >= 0; i-- {
			b.WriteString(strconv.Itoa(int(a[i])))
			b.WriteByte('.')
		}
		b.WriteString("in-addr.arpa.")
		return b.String()
	}
	const hex = "0123456789abcdef"
	a := addr.As16()
	b.Grow(73)
	for i := 15; i >= 0; i-- {
		b.WriteByte(hex[a[i]&0xf])
		b.WriteByte('.')
		b.WriteByte(hex[a[i]>>4])
		b.WriteByte('.')
	}
	b.WriteString("ip6.arpa.")
	return b.String()
}
