package settings

import (
	"fmt"
	"net"
	"strings"

	"github.com/weir-streams/weir/internal/component"
)

// The status server's security keys, in the style of the stream's
// broker.ssl.* keys.
const (
	KeyUIBindAddress = "engine.ui.bindAddress"
	KeyUIProfiling   = "engine.ui.profiling"
	KeyUITap         = "engine.ui.tap"
	KeyUIUsername    = "engine.ui.auth.username"
	KeyUIPassword    = "engine.ui.auth.password"
	KeyUICert        = "engine.ui.ssl.certificate.location"
	KeyUIKey         = "engine.ui.ssl.key.location"
)

// UI is how the status server listens and whom it serves: the key group
// of engine.ui.*, embedded in EngineConfig, whose Validate checks it.
type UI struct {
	BindAddress string `key:"engine.ui.bindAddress"` // "" = every interface
	// Profiling serves /debug/pprof/, to 127.0.0.1 only.
	Profiling bool `key:"engine.ui.profiling"`
	// Tap serves /api/tap, samples of written records, to 127.0.0.1 only.
	Tap      bool   `key:"engine.ui.tap"`
	Username string `key:"engine.ui.auth.username"` // "" = no authentication
	// Password is engine.ui.auth.password. It is left out of JSON, as
	// the settings are shown on /api/status.
	Password string `key:"engine.ui.auth.password" json:"-"`
	CertFile string `key:"engine.ui.ssl.certificate.location"` // "" = plain HTTP
	KeyFile  string `key:"engine.ui.ssl.key.location"`
}

var bindAddress = component.NewValidator("IP address or host name", func(s string) error {
	if net.ParseIP(s) == nil && (s == "" || strings.ContainsAny(s, ":/ []")) {
		return fmt.Errorf("%q is not an IP address or a host name (the port is %s)", s, KeyUIPort)
	}
	return nil
})

func uiProperties() []component.Property {
	return []component.Property{
		{Key: KeyUIBindAddress, Description: "Address the status server listens on, e.g. 127.0.0.1 to serve this host only. Unset: every interface.", Example: "127.0.0.1", Validator: bindAddress},
		{Key: KeyUIProfiling, Description: "Serve Go's profiles at /debug/pprof/, to requests from 127.0.0.1 (and ::1) only. Off by default: a profile shows the program's memory.", Default: "false", Validator: component.Bool},
		{Key: KeyUITap, Description: "Keep samples of the records the streams write (one record of each kind in 8 chunks, the latest 64 per stream and kind, fields named like password, token, secret, cookie redacted) and serve them at /api/tap to 127.0.0.1 (and ::1) only, for weir tap. Off by default: samples are the records themselves.", Default: "false", Validator: component.Bool},
		{Key: KeyUIUsername, Description: "User name of HTTP basic authentication on every path but /healthz and /readyz (which orchestrators probe); with " + KeyUIPassword + ". Unset: no authentication."},
		{Key: KeyUIPassword, Description: "Password of HTTP basic authentication. Write ${file:/run/secrets/name} to read it from a file. Use it with TLS: basic authentication sends it in clear otherwise.", Sensitive: true},
		{Key: KeyUICert, Description: "PEM file of the status server's TLS certificate (chain); with " + KeyUIKey + ". Unset: plain HTTP."},
		{Key: KeyUIKey, Description: "PEM file of the TLS certificate's private key."},
	}
}

// problems reports the status server's keys that must go together.
func (u *UI) problems() component.Problems {
	var probs component.Problems
	if (u.Username == "") != (u.Password == "") {
		probs = append(probs, problem(KeyUIUsername, fmt.Sprintf("%s and %s go together", KeyUIUsername, KeyUIPassword)))
	}
	if (u.CertFile == "") != (u.KeyFile == "") {
		probs = append(probs, problem(KeyUICert, fmt.Sprintf("%s and %s go together", KeyUICert, KeyUIKey)))
	}
	return probs
}
