package remote_test

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
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/engine"
	"github.com/weir-streams/weir/internal/remote"
	"github.com/weir-streams/weir/internal/streamtest"
)

func TestBasicAuthAndBearer(t *testing.T) {
	b := streamtest.StartBroker(t)
	t0 := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name        string
		server      func(*apiServer)
		good, wrong func(*remote.Settings)
	}{
		{"basic", func(s *apiServer) { s.user, s.pass = "weir", "pw-basic" },
			func(s *remote.Settings) { s.User, s.Password = "weir", "pw-basic" },
			func(s *remote.Settings) { s.User, s.Password = "weir", "pw-wrong" }},
		{"bearer", func(s *apiServer) { s.token = "tok-123" },
			func(s *remote.Settings) { s.Token = "tok-123" },
			func(s *remote.Settings) { s.Token = "tok-999" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			api := newAPIServer(t)
			tc.server(api)
			api.serveDataflow(typed(b.Addr, t0, t0, "v1"), "rev 1")
			e := streamtest.NewEngine(t, engine.Settings{AppName: "auth-" + tc.name})
			set := settings(api.srv.URL, "auth-"+tc.name)
			tc.wrong(&set)
			logs := &logBuffer{}
			c := newClient(t, set, e, "", logs)
			c.Poll(context.Background())
			if st := c.Status(); st.LastPoll.HTTPStatus != 401 || e.Snapshot() != nil {
				t.Fatalf("wrong credentials: %+v", st.LastPoll)
			}
			if strings.Contains(logs.String(), "pw-wrong") || strings.Contains(logs.String(), "tok-999") {
				t.Fatalf("a credential was logged:\n%s", logs.String())
			}
			set = settings(api.srv.URL, "auth-"+tc.name)
			tc.good(&set)
			c = newClient(t, set, e, "", nil)
			c.Poll(context.Background())
			if st := c.Status(); st.LastPoll.Result != remote.PollApplied {
				t.Fatalf("right credentials: %+v", st.LastPoll)
			}
		})
	}
}

// testCA makes a certificate authority and certificates signed by it.
type testCA struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
	pem  []byte
}

func newTestCA(t *testing.T) *testCA {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "weir test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	return &testCA{cert: cert, key: key, pem: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})}
}

// issue returns a certificate for 127.0.0.1, for a server or a client.
func (ca *testCA) issue(t *testing.T, serial int64, usage x509.ExtKeyUsage) (tls.Certificate, []byte, []byte) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(serial), Subject: pkix.Name{CommonName: "weir test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, ExtKeyUsage: []x509.ExtKeyUsage{usage}, KeyUsage: x509.KeyUsageDigitalSignature}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	keyPEM := pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder})
	pair, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		t.Fatal(err)
	}
	return pair, certPEM, keyPEM
}

// TLS with a CA made by the test, and a client certificate the server
// requires.
func TestTLSWithTestCA(t *testing.T) {
	ca := newTestCA(t)
	serverCert, _, _ := ca.issue(t, 2, x509.ExtKeyUsageServerAuth)
	_, clientCert, clientKey := ca.issue(t, 3, x509.ExtKeyUsageClientAuth)
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	caFile, certFile, keyFile := write("ca.pem", ca.pem), write("client.pem", clientCert), write("client.key", clientKey)

	api := &apiServer{t: t, postArrived: make(chan struct{}, 1000)}
	api.srv = httptest.NewUnstartedServer(http.HandlerFunc(api.serve))
	pool := x509.NewCertPool()
	pool.AddCert(ca.cert)
	api.srv.TLS = &tls.Config{Certificates: []tls.Certificate{serverCert}, ClientCAs: pool, ClientAuth: tls.RequireAndVerifyClientCert}
	api.srv.StartTLS()
	t.Cleanup(api.srv.Close)
	b := streamtest.StartBroker(t)
	t0 := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	api.serveDataflow(typed(b.Addr, t0, t0, "v1"), "rev 1")
	e := streamtest.NewEngine(t, engine.Settings{AppName: "tls"})

	// Without the CA, the server is not trusted.
	set := settings(api.srv.URL, "tls")
	c := newClient(t, set, e, "", nil)
	c.Poll(context.Background())
	if st := c.Status(); st.LastPoll.Result != remote.PollError || !strings.Contains(st.LastPoll.Error, "certificate") {
		t.Fatalf("without the CA: %+v", st.LastPoll)
	}
	// With the CA but no client certificate, the server refuses.
	set.CAFile = caFile
	c = newClient(t, set, e, "", nil)
	c.Poll(context.Background())
	if st := c.Status(); st.LastPoll.Result != remote.PollError {
		t.Fatalf("without a client certificate: %+v", st.LastPoll)
	}
	set.CertFile, set.KeyFile = certFile, keyFile
	c = newClient(t, set, e, "", nil)
	c.Poll(context.Background())
	if st := c.Status(); st.LastPoll.Result != remote.PollApplied {
		t.Fatalf("with CA and client certificate: %+v", st.LastPoll)
	}
	// A CA file that is not PEM fails at New, not at the first poll.
	set.CAFile = write("bad.pem", []byte("not a certificate"))
	if _, err := remote.New(remote.Options{Settings: set, Engine: e}); err == nil || !strings.Contains(err.Error(), "remote.api.tls.ca.file") {
		t.Fatalf("bad CA file: err = %v", err)
	}
}
