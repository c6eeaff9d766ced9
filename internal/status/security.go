package status

import (
	"crypto/sha256"
	"crypto/subtle"
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
	"net/http/pprof"
	"time"

	"github.com/weir-streams/weir/internal/localfile"
)

// Options secure the status server. The zero value serves plain HTTP to
// everyone, without profiles.
type Options struct {
	// Profiling serves /debug/pprof/ to requests from the loopback
	// interface only: a profile shows the program's memory.
	Profiling bool
	// Tap, when set, serves samples of the records the streams write at
	// /api/tap to the loopback interface (tap.go).
	Tap *Tap
	// Username and Password turn on HTTP basic authentication for every
	// path but /healthz and /readyz, which orchestrators probe without
	// credentials and which tell nothing.
	Username, Password string
	// CertFile and KeyFile turn on TLS.
	CertFile, KeyFile string
	// Limits bound slow and idle clients; zero means DefaultLimits.
	Limits Limits
}

// Bounds of a request: the status server answers GETs with small URLs;
// anything larger is refused before a handler runs.
const (
	maxURLBytes  = 4 << 10
	maxBodyBytes = 4 << 10
)

// contentSecurityPolicy allows the status page to load scripts, styles and
// images from the server itself and nothing else, and never to be framed.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

// harden wraps the server's handler: response headers a browser expects,
// bounded requests, and basic authentication when configured.
func harden(next http.Handler, o Options) http.Handler {
	var userSum, passSum [32]byte
	auth := o.Username != ""
	if auth {
		userSum, passSum = sha256.Sum256([]byte(o.Username)), sha256.Sum256([]byte(o.Password))
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Content-Security-Policy", contentSecurityPolicy)
		h.Set("Referrer-Policy", "no-referrer")
		if o.CertFile != "" {
			h.Set("Strict-Transport-Security", "max-age=31536000")
		}
		if len(r.RequestURI) > maxURLBytes {
			http.Error(w, "URL too long", http.StatusRequestURITooLong)
			return
		}
		if r.ContentLength > maxBodyBytes {
			http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, maxBodyBytes)
		if auth && r.URL.Path != "/healthz" && r.URL.Path != "/readyz" {
			u, p, ok := r.BasicAuth()
			// Compare hashes in constant time: neither the length nor
			// the content of the credentials leaks through timing.
			us, ps := sha256.Sum256([]byte(u)), sha256.Sum256([]byte(p))
			if !ok || subtle.ConstantTimeCompare(us[:], userSum[:])&subtle.ConstantTimeCompare(ps[:], passSum[:]) != 1 {
				h.Set("WWW-Authenticate", `Basic realm="weir", charset="UTF-8"`)
				http.Error(w, "authentication required", http.StatusUnauthorized)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// registerProfiling adds Go's profiles to mux when asked for, served to the
// loopback interface only.
func registerProfiling(mux *http.ServeMux, o Options, limit time.Duration) {
	if !o.Profiling {
		return
	}
	local := func(h http.HandlerFunc) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			host, _, err := net.SplitHostPort(r.RemoteAddr)
			if ip := net.ParseIP(host); err != nil || ip == nil || !ip.IsLoopback() {
				http.Error(w, "profiles are served to 127.0.0.1 only", http.StatusForbidden)
				return
			}
			h(w, r)
		}
	}
	mux.HandleFunc("GET /debug/pprof/", longWrite(limit, local(pprof.Index)))
	mux.HandleFunc("GET /debug/pprof/profile", longWrite(limit, local(pprof.Profile)))
	mux.HandleFunc("GET /debug/pprof/trace", longWrite(limit, local(pprof.Trace)))
}

// tlsConfig loads the server's certificate, if any.
func tlsConfig(o Options) (*tls.Config, error) {
	if o.CertFile == "" {
		return nil, nil
	}
	cert, err := localfile.KeyPair(o.CertFile, o.KeyFile)
	if err != nil {
		return nil, fmt.Errorf("status server: TLS certificate: %w", err)
	}
	return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}, nil
}
