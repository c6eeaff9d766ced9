// Command benchdns is the DNS server of the enrichment benchmark
// (scripts/bench-peer -enrich): it answers, on 127.0.0.1 over UDP, the PTR
// query of every IPv4 address with h-A-B-C-D.bench.example. and the A query
// of that name with the address, so that every address of the access log
// has a verified name. It prints "READY host:port" once it listens and runs
// until SIGINT or SIGTERM.
package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/miekg/dns"
)

func main() {
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchdns:", err)
		os.Exit(1)
	}
	srv := &dns.Server{PacketConn: pc, Handler: dns.HandlerFunc(answer)}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	done := make(chan error, 1)
	go func() { done <- srv.ActivateAndServe() }()
	fmt.Println("READY", pc.LocalAddr())
	select {
	case <-ctx.Done():
		_ = srv.Shutdown()
		<-done
	case err := <-done:
		fmt.Fprintln(os.Stderr, "benchdns:", err)
		os.Exit(1)
	}
}

const suffix = ".bench.example."

// answer serves PTR and A as the package comment says; anything else gets
// an empty answer.
func answer(w dns.ResponseWriter, q *dns.Msg) {
	m := new(dns.Msg)
	m.SetReply(q)
	for _, qq := range q.Question {
		switch qq.Qtype {
		case dns.TypePTR:
			// 4.3.2.1.in-addr.arpa. -> h-1-2-3-4.bench.example.
			parts := strings.Split(strings.TrimSuffix(qq.Name, ".in-addr.arpa."), ".")
			if len(parts) != 4 {
				continue
			}
			name := "h-" + parts[3] + "-" + parts[2] + "-" + parts[1] + "-" + parts[0] + suffix
			m.Answer = append(m.Answer, &dns.PTR{Hdr: dns.RR_Header{Name: qq.Name, Rrtype: dns.TypePTR, Class: dns.ClassINET, Ttl: 3600}, Ptr: name})
		case dns.TypeA:
			host, ok := strings.CutSuffix(strings.ToLower(qq.Name), suffix)
			if !ok || !strings.HasPrefix(host, "h-") {
				continue
			}
			ip := net.ParseIP(strings.ReplaceAll(host[2:], "-", "."))
			if ip == nil {
				continue
			}
			m.Answer = append(m.Answer, &dns.A{Hdr: dns.RR_Header{Name: qq.Name, Rrtype: dns.TypeA, Class: dns.ClassINET, Ttl: 3600}, A: ip})
		}
	}
	_ = w.WriteMsg(m)
}
