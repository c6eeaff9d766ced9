package remote

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/weir-streams/weir/internal/localfile"
)

// newHTTPClient builds the HTTP client of the API: remote.api.timeouts.connect
// bounds the connection and the TLS handshake, remote.api.timeouts.socket the
// wait for the response headers (and, in readBody, each read of the body).
func newHTTPClient(s Settings) (*http.Client, error) {
	dialer := &net.Dialer{Timeout: s.Connect, KeepAlive: 30 * time.Second}
	tr := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           dialer.DialContext,
		TLSHandshakeTimeout:   s.Connect,
		ResponseHeaderTimeout: s.Socket,
		MaxIdleConnsPerHost:   2,
		IdleConnTimeout:       90 * time.Second,
	}
	if s.CAFile != "" || s.CertFile != "" {
		conf := &tls.Config{MinVersion: tls.VersionTLS12}
		if s.CAFile != "" {
			pem, err := localfile.Read(s.CAFile, localfile.PEM)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", KeyCAFile, err)
			}
			pool := x509.NewCertPool()
			if !pool.AppendCertsFromPEM(pem) {
				return nil, fmt.Errorf("%s: %s holds no PEM certificate", KeyCAFile, s.CAFile)
			}
			conf.RootCAs = pool
		}
		if s.CertFile != "" {
			cert, err := localfile.KeyPair(s.CertFile, s.KeyFile)
			if err != nil {
				return nil, fmt.Errorf("%s and %s: %w", KeyCertFile, KeyKeyFile, err)
			}
			conf.Certificates = []tls.Certificate{cert}
		}
		tr.TLSClientConfig = conf
	}
	return &http.Client{
		Transport: tr,
		// A redirect would carry the credentials to another place; the
		// contract has none, so one is an error.
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return errors.New("the dataflow API answered with a redirect, which Weir does not follow")
		},
	}, nil
}

// errIdle is the error of a body read that waited longer than the socket
// timeout.
var errIdle = errors.New("no data from the server within remote.api.timeouts.socket")

// readBody reads a response body of at most maxBody bytes, failing when no
// byte arrives for idle. The transport's own timeouts end at the headers;
// without this a server that sends headers and then stalls would hold the
// poll until stop.
func readBody(body io.ReadCloser, idle time.Duration) ([]byte, error) {
	timer := time.AfterFunc(idle, func() { body.Close() })
	defer timer.Stop()
	var out []byte
	buf := make([]byte, 32<<10)
	for {
		n, err := body.Read(buf)
		if !timer.Stop() {
			return nil, errIdle
		}
		out = append(out, buf[:n]...)
		if len(out) > maxBody {
			return nil, fmt.Errorf("body larger than %d bytes", maxBody)
		}
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		timer.Reset(idle)
	}
}
