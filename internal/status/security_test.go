package status_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/weir-streams/weir/internal/status"
)

func startWith(t *testing.T, o status.Options) string {
	t.Helper()
	srv, err := status.StartWith("127.0.0.1:0", prometheus.NewRegistry(), source{ready: true}, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	})
	return srv.Addr()
}

func do(t *testing.T, cl *http.Client, url, user, pass string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if user != "" {
		req.SetBasicAuth(user, pass)
	}
	resp, err := cl.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// TestStatusServerDefaults: no profiles unless asked for, browser headers
// on every answer, bounded URLs.
func TestStatusServerDefaults(t *testing.T) {
	base := "http://" + startWith(t, status.Options{})
	for _, path := range []string{"/healthz", "/api/status", "/nowhere"} {
		resp, _ := do(t, http.DefaultClient, base+path, "", "")
		for k, want := range map[string]string{"X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY"} {
			if got := resp.Header.Get(k); got != want {
				t.Errorf("%s: %s = %q, want %q", path, k, got, want)
			}
		}
		if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'self'") || !strings.Contains(csp, "frame-ancestors 'none'") {
			t.Errorf("%s: Content-Security-Policy %q", path, csp)
		}
	}
	if resp, _ := do(t, http.DefaultClient, base+"/debug/pprof/", "", ""); resp.StatusCode != http.StatusNotFound {
		t.Errorf("/debug/pprof/ without engine.ui.profiling = %d, want 404", resp.StatusCode)
	}
	if resp, _ := do(t, http.DefaultClient, base+"/api/status?"+strings.Repeat("a", 5000), "", ""); resp.StatusCode != http.StatusRequestURITooLong {
		t.Errorf("a 5000-byte URL = %d, want 414", resp.StatusCode)
	}
}

// TestStatusServerProfilingOn serves profiles to 127.0.0.1 when asked
// for; profiling_internal_test.go shows the refusal of other peers.
func TestStatusServerProfilingOn(t *testing.T) {
	addr := startWith(t, status.Options{Profiling: true})
	if resp, body := do(t, http.DefaultClient, "http://"+addr+"/debug/pprof/", "", ""); resp.StatusCode != 200 || !strings.Contains(body, "goroutine") {
		t.Errorf("/debug/pprof/ from 127.0.0.1 = %d", resp.StatusCode)
	}
}

// TestStatusServerBasicAuthOverTLS: with a certificate made by the test and
// basic authentication, probes answer without credentials, everything else
// needs the right ones, and plain HTTP is not spoken.
func TestStatusServerBasicAuthOverTLS(t *testing.T) {
	dir := t.TempDir()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "weir status"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), 0o600); err != nil {
		t.Fatal(err)
	}
	addr := startWith(t, status.Options{Username: "ops", Password: "ui-pa55", CertFile: certFile, KeyFile: keyFile})
	cert, _ := x509.ParseCertificate(der)
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	cl := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	t.Cleanup(cl.CloseIdleConnections)
	base := "https://" + addr
	for _, c := range []struct {
		path, user, pass string
		want             int
	}{
		{"/healthz", "", "", 200},
		{"/readyz", "", "", 200},
		{"/api/status", "", "", 401},
		{"/api/status", "ops", "wrong", 401},
		{"/metrics", "other", "ui-pa55", 401},
		{"/api/status", "ops", "ui-pa55", 200},
		{"/metrics", "ops", "ui-pa55", 200},
	} {
		resp, _ := do(t, cl, base+c.path, c.user, c.pass)
		if resp.StatusCode != c.want {
			t.Errorf("%s as %q/%q = %d, want %d", c.path, c.user, c.pass, resp.StatusCode, c.want)
		}
		if c.want == 401 && !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Basic ") {
			t.Errorf("%s: 401 without a Basic challenge", c.path)
		}
		if resp.Header.Get("Strict-Transport-Security") == "" {
			t.Errorf("%s: no Strict-Transport-Security over TLS", c.path)
		}
	}
	if resp, err := http.Get("http://" + addr + "/healthz"); err == nil {
		if resp.StatusCode == 200 {
			t.Errorf("plain HTTP to the TLS server answered 200")
		}
		resp.Body.Close()
	}
}
