package stream_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/sasl/plain"

	"github.com/weir-streams/weir/internal/dataflow"
	"github.com/weir-streams/weir/internal/engine"
	"github.com/weir-streams/weir/internal/stream"
	"github.com/weir-streams/weir/internal/streamtest"
)

const (
	testUser = "weir"
	testPass = "s3cret-Kafka-pw"
)

// testPKI is a certificate authority made by the test, a broker
// certificate for 127.0.0.1 and one for another host, all on disk as PEM.
type testPKI struct {
	caFile        string
	pool          *x509.CertPool
	good, another tls.Certificate
}

func newPKI(t *testing.T) testPKI {
	t.Helper()
	dir := t.TempDir()
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	caTmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "weir test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	ca, _ := x509.ParseCertificate(caDER)
	p := testPKI{caFile: filepath.Join(dir, "ca.pem"), pool: x509.NewCertPool()}
	p.pool.AddCert(ca)
	if err := os.WriteFile(p.caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}), 0o600); err != nil {
		t.Fatal(err)
	}
	leaf := func(serial int64, ips []net.IP, dns []string) tls.Certificate {
		key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		tmpl := &x509.Certificate{
			SerialNumber: big.NewInt(serial), Subject: pkix.Name{CommonName: "broker"},
			NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
			KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
			IPAddresses: ips, DNSNames: dns,
		}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
		if err != nil {
			t.Fatal(err)
		}
		return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
	}
	p.good = leaf(2, []net.IP{net.IPv4(127, 0, 0, 1)}, []string{"localhost"})
	p.another = leaf(3, nil, []string{"kafka.another.example"})
	return p
}

// startSecureBroker starts kfake with SASL (PLAIN and SCRAM-SHA-256 users)
// and, when cert is given, TLS.
//
// kfake differs from Kafka on a wrong password: it closes the connection,
// where Kafka answers SASL_AUTHENTICATION_FAILED; without that answer no
// client can tell a wrong password from a network failure. A control
// function on SaslAuthenticate (key 36) answers as Kafka does for PLAIN,
// whose request carries the password; other requests go to kfake.
func startSecureBroker(t *testing.T, cert *tls.Certificate) (*kfake.Cluster, string) {
	t.Helper()
	opts := []kfake.Opt{
		kfake.NumBrokers(1), kfake.AllowAutoTopicCreation(), kfake.EnableSASL(),
		kfake.Superuser("PLAIN", testUser, testPass),
		kfake.Superuser("SCRAM-SHA-256", testUser, testPass),
	}
	if cert != nil {
		opts = append(opts, kfake.TLS(&tls.Config{Certificates: []tls.Certificate{*cert}, MinVersion: tls.VersionTLS12}))
	}
	c, err := kfake.NewCluster(opts...)
	if err != nil {
		t.Fatalf("start kfake: %v", err)
	}
	t.Cleanup(c.Close)
	c.ControlKey(36, func(req kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		r := req.(*kmsg.SASLAuthenticateRequest)
		// PLAIN's message is authzid NUL user NUL password; SCRAM's
		// first message starts "n,,".
		parts := strings.Split(string(r.SASLAuthBytes), "\x00")
		if len(parts) != 3 || parts[2] == testPass {
			return nil, nil, false
		}
		resp := r.ResponseKind().(*kmsg.SASLAuthenticateResponse)
		resp.ErrorCode = kerr.SaslAuthenticationFailed.Code
		msg := "Authentication failed: Invalid username or password"
		resp.ErrorMessage = &msg
		return resp, nil, true
	})
	return c, c.ListenAddrs()[0]
}

func secureClient(t *testing.T, addr string, pki testPKI, opts ...kgo.Opt) *kgo.Client {
	t.Helper()
	cl, err := kgo.NewClient(append([]kgo.Opt{
		kgo.SeedBrokers(addr),
		kgo.DialTLSConfig(&tls.Config{RootCAs: pki.pool, MinVersion: tls.VersionTLS12}),
		kgo.SASL(plain.Auth{User: testUser, Pass: testPass}.AsMechanism()),
		kgo.ProducerLinger(5 * time.Millisecond),
	}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	return cl
}

func secureStream(name, addr string, kv ...string) dataflow.Stream {
	return streamtest.Stream(name, addr, name+"_in", name+"_out", name+"_errors", streamtest.Props(kv...)...)
}

func dataflowOf(s dataflow.Stream) *dataflow.DataFlow {
	s.Pipeline = dataflow.Pipeline{Processors: []dataflow.Component{streamtest.ApacheParser(false)}}
	// A later lastModified makes the engine replace the running dataflow.
	return &dataflow.DataFlow{Streams: []dataflow.Stream{s}, LastModified: time.Now()}
}

// TestSASLSSLEndToEnd runs the access-log parser over SASL_SSL, with PLAIN
// and with SCRAM-SHA-256, and reads every parsed line back.
func TestSASLSSLEndToEnd(t *testing.T) {
	pki := newPKI(t)
	_, addr := startSecureBroker(t, &pki.good)
	lines := streamtest.AccessLogLines(t)[:200]
	for _, mech := range []string{stream.MechanismPlain, stream.MechanismSCRAM256} {
		t.Run(mech, func(t *testing.T) {
			name := "secure_" + strings.ReplaceAll(strings.ToLower(mech), "-", "_")
			e := streamtest.NewEngine(t, engine.Settings{AppName: name})
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			df := dataflowOf(secureStream(name, addr,
				stream.KeySecurityProtocol, stream.ProtocolSASLSSL, stream.KeySASLMechanism, mech,
				stream.KeySASLUsername, testUser, stream.KeySASLPassword, testPass, stream.KeySSLCA, pki.caFile))
			if err := e.Apply(ctx, df); err != nil {
				t.Fatalf("apply: %v", err)
			}
			cl := secureClient(t, addr, pki, kgo.ConsumeTopics(name+"_out"))
			for _, l := range lines {
				cl.Produce(ctx, &kgo.Record{Topic: name + "_in", Value: []byte(l)}, nil)
			}
			if err := cl.Flush(ctx); err != nil {
				t.Fatal(err)
			}
			got := 0
			for got < len(lines) && ctx.Err() == nil {
				fs := cl.PollFetches(ctx)
				for _, fe := range fs.Errors() {
					t.Fatalf("consume %s: %v", fe.Topic, fe.Err)
				}
				got += fs.NumRecords()
			}
			if got != len(lines) {
				t.Fatalf("read %d parsed records of %d lines", got, len(lines))
			}
		})
	}
}

// TestSecurityErrors checks that each failure a user meets gives an error
// at start naming the stream, the broker and what to check, and that the
// engine then applies a correct dataflow.
func TestSecurityErrors(t *testing.T) {
	pki := newPKI(t)
	_, addr := startSecureBroker(t, &pki.good)
	_, otherAddr := startSecureBroker(t, &pki.another)
	good := []string{stream.KeySecurityProtocol, stream.ProtocolSASLSSL, stream.KeySASLMechanism, stream.MechanismPlain,
		stream.KeySASLUsername, testUser, stream.KeySASLPassword, testPass, stream.KeySSLCA, pki.caFile}
	with := func(kv ...string) []string {
		out := append([]string(nil), good...)
		for i := 0; i+1 < len(kv); i += 2 {
			replaced := false
			for j := 0; j+1 < len(out); j += 2 {
				if out[j] == kv[i] {
					out[j+1], replaced = kv[i+1], true
				}
			}
			if !replaced {
				out = append(out, kv[i], kv[i+1])
			}
		}
		return out
	}
	cases := []struct {
		name, addr string
		kv         []string
		want       []string
	}{
		{"wrong password", addr, with(stream.KeySASLPassword, "not-the-password"),
			[]string{"SASL_AUTHENTICATION_FAILED", "wrong broker.sasl.username or broker.sasl.password"}},
		{"unknown CA", addr, with(stream.KeySSLCA, ""),
			[]string{"not signed by an authority in the system's store"}},
		{"another host", otherAddr, with(),
			[]string{"certificate is for another host", stream.KeySSLEndpointID}},
		{"mechanism not enabled", addr, with(stream.KeySASLMechanism, stream.MechanismOAuthBearer, stream.KeyOAuthToken, "tok"),
			[]string{"UNSUPPORTED_SASL_MECHANISM", "does not enable broker.sasl.mechanism OAUTHBEARER"}},
	}
	e := streamtest.NewEngine(t, engine.Settings{AppName: "errors"})
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			name := "bad_" + string(rune('a'+i))
			err := e.Apply(ctx, dataflowOf(secureStream(name, c.addr, c.kv...)))
			if err == nil {
				t.Fatal("apply succeeded")
			}
			for _, w := range append([]string{`stream "` + name + `"`, c.addr}, c.want...) {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			if strings.Contains(err.Error(), testPass) || strings.Contains(err.Error(), "not-the-password") {
				t.Errorf("error %q shows the password", err)
			}
			// The engine stays up and runs the next, correct dataflow.
			if err := e.Apply(ctx, dataflowOf(secureStream("good_"+string(rune('a'+i)), addr, good...))); err != nil {
				t.Fatalf("apply a correct dataflow after the failure: %v", err)
			}
		})
	}
}

// TestEndpointIdentificationNone accepts a certificate for another host
// when asked, and still refuses one from an unknown authority.
func TestEndpointIdentificationNone(t *testing.T) {
	pki := newPKI(t)
	_, otherAddr := startSecureBroker(t, &pki.another)
	e := streamtest.NewEngine(t, engine.Settings{AppName: "noverify"})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	kv := []string{stream.KeySecurityProtocol, stream.ProtocolSASLSSL, stream.KeySASLUsername, testUser,
		stream.KeySASLPassword, testPass, stream.KeySSLEndpointID, "none"}
	err := e.Apply(ctx, dataflowOf(secureStream("unknown_ca", otherAddr, kv...)))
	if err == nil || !strings.Contains(err.Error(), "not signed by an authority") {
		t.Fatalf("apply with an unknown authority and endpoint check off: %v, want an unknown-authority error", err)
	}
	if err := e.Apply(ctx, dataflowOf(secureStream("no_host_check", otherAddr, append(kv, stream.KeySSLCA, pki.caFile)...))); err != nil {
		t.Fatalf("apply with endpoint check off: %v", err)
	}
}
