package remote

import (
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/dataflow"
)

// Keys of the engine component that configure the client. They are
// declared here, next to the code that reads them, and added to the
// engine's spec by engine.Spec, so `weir components` documents them and job
// files are validated against them.
const (
	KeyBaseURL     = "remote.api.baseUrl"
	KeyPollingRate = "remote.api.polling.rate"
	KeyPushRate    = "remote.api.push.rate"
	KeyConnect     = "remote.api.timeouts.connect"
	KeySocket      = "remote.api.timeouts.socket"
	KeyUser        = "remote.api.auth.user"
	KeyPassword    = "remote.api.auth.password"
	KeyToken       = "remote.api.auth.token"
	KeyCAFile      = "remote.api.tls.ca.file"
	KeyCertFile    = "remote.api.tls.cert.file"
	KeyKeyFile     = "remote.api.tls.key.file"
	// KeyAllowedPaths and KeyAllowedEmbedded bound what a dataflow from the
	// API may name on this machine (dataflow.CheckRemote).
	KeyAllowedPaths    = dataflow.KeyAllowedPaths
	KeyAllowedEmbedded = dataflow.KeyAllowedEmbedded
)

// Properties declares the remote.api.* keys of the engine.
func Properties() []component.Property {
	return []component.Property{
		{Key: KeyBaseURL, Description: "Base URL of the dataflow REST API (http or https). Set, it enables the client: Weir polls GET {baseUrl}/dataflows/{engine.app.name} and POSTs snapshots to the same path. Unset: no polling. See docs/remote-api.md.", Validator: component.URL("http", "https")},
		{Key: KeyPollingRate, Description: "Milliseconds between two polls of the dataflow, each jittered by +-10% (the first poll after start waits 0 to 10% of it).", Default: "5000", Validator: component.IntRange(10, 86_400_000)},
		{Key: KeyPushRate, Description: "Milliseconds between two snapshot pushes (jittered by +-10%), beside the push after every applied or refused change; 0 = push only after changes.", Default: "30000", Validator: component.IntRange(0, 86_400_000)},
		{Key: KeyConnect, Description: "Milliseconds to wait for the TCP connection and the TLS handshake with the REST API.", Default: "10000", Validator: component.IntRange(1, 3_600_000)},
		{Key: KeySocket, Description: "Milliseconds to wait for the response headers, and then for each read of the body, from the REST API. A whole poll (connection, headers, body) may take at most remote.api.timeouts.connect + 2 x remote.api.timeouts.socket.", Default: "10000", Validator: component.IntRange(1, 3_600_000)},
		{Key: KeyUser, Description: "User name of HTTP basic authentication to the REST API (with remote.api.auth.password)."},
		{Key: KeyPassword, Description: "Password of HTTP basic authentication to the REST API. Never logged; redacted everywhere.", Sensitive: true},
		{Key: KeyToken, Description: "Bearer token sent as Authorization: Bearer to the REST API (instead of basic authentication). Never logged; redacted everywhere.", Sensitive: true},
		{Key: KeyCAFile, Description: "PEM file of the certificate authorities trusted for an https base URL, instead of the system's."},
		{Key: KeyCertFile, Description: "PEM file of the client certificate presented to an https REST API (with remote.api.tls.key.file)."},
		{Key: KeyKeyFile, Description: "PEM file of the private key of remote.api.tls.cert.file."},
		{Key: KeyAllowedPaths, Description: "Comma-separated absolute directories under which a dataflow from the REST API may name local files and directories (keys ending in .location, .file, .dir, .path, maxmind.database.uri, and URI options ending in File such as tlsCAFile: certificates, token files, pattern files, geo databases). Empty (the default): a dataflow from the API may name none, and one that does is refused. See docs/security.md."},
		{Key: KeyAllowedEmbedded, Description: "Whether a dataflow from the REST API may use \"embedded\" as broker.metadata.broker.list, which starts a broker without authentication in this process. Off by default: such a dataflow is refused.", Default: "false", Validator: component.Bool},
	}
}

// Settings are the client's keys, typed.
type Settings struct {
	// BaseURL without a trailing slash; empty when the client is off.
	BaseURL     string
	Dataflow    string // engine.app.name
	PollingRate time.Duration
	PushRate    time.Duration // 0 = only after changes
	Connect     time.Duration
	Socket      time.Duration
	User        string
	Password    string `json:"-"`
	Token       string `json:"-"`
	CAFile      string
	CertFile    string
	KeyFile     string
	// Policy bounds what a dataflow from the API may name on this machine.
	Policy dataflow.RemotePolicy
}

// Enabled reports whether a base URL is set.
func (s Settings) Enabled() bool { return s.BaseURL != "" }

// ClientConfig is the key group of the remote.api.* keys, as written,
// embedded in the engine's typed configuration (settings.EngineConfig),
// whose validation runs its Validate.
type ClientConfig struct {
	BaseURL       string        `key:"remote.api.baseUrl"`
	PollingRate   time.Duration `key:"remote.api.polling.rate"`
	PushRate      time.Duration `key:"remote.api.push.rate"`
	Connect       time.Duration `key:"remote.api.timeouts.connect"`
	Socket        time.Duration `key:"remote.api.timeouts.socket"`
	User          string        `key:"remote.api.auth.user"`
	Password      string        `key:"remote.api.auth.password"`
	Token         string        `key:"remote.api.auth.token"`
	CAFile        string        `key:"remote.api.tls.ca.file"`
	CertFile      string        `key:"remote.api.tls.cert.file"`
	KeyFile       string        `key:"remote.api.tls.key.file"`
	AllowedPaths  []string      `key:"remote.api.allowed.paths"`
	AllowEmbedded bool          `key:"remote.api.allowed.embedded"`
}

// Validate checks the keys that must agree, so that `weir validate` and a
// refused remote configuration report these problems with the engine's
// other keys. Its error is a component.Problems naming each key.
func (c *ClientConfig) Validate() error {
	var probs component.Problems
	bad := func(key, msg string) {
		probs = append(probs, component.Problem{Key: key, Msg: fmt.Sprintf("property %q: %s", key, msg)})
	}
	if err := dataflow.CheckAllowedPaths(c.AllowedPaths); err != nil {
		bad(KeyAllowedPaths, err.Error())
	}
	if c.BaseURL != "" {
		if u, err := url.Parse(strings.TrimRight(c.BaseURL, "/")); err == nil && u.User != nil {
			// The URL would carry the password into logs and errors.
			bad(KeyBaseURL, "the base URL must not hold credentials; use remote.api.auth.user and remote.api.auth.password")
		}
	}
	if (c.User == "") != (c.Password == "") {
		bad(KeyUser, "remote.api.auth.user and remote.api.auth.password go together")
	}
	if c.Token != "" && c.User != "" {
		bad(KeyToken, "give either a bearer token or a user and password, not both")
	}
	if (c.CertFile == "") != (c.KeyFile == "") {
		bad(KeyCertFile, "remote.api.tls.cert.file and remote.api.tls.key.file go together")
	}
	return probs.Err()
}

// Settings returns the client's settings for the dataflow named name
// (engine.app.name).
func (c *ClientConfig) Settings(name string) Settings {
	return Settings{
		BaseURL: strings.TrimRight(c.BaseURL, "/"), Dataflow: name,
		PollingRate: c.PollingRate, PushRate: c.PushRate, Connect: c.Connect, Socket: c.Socket,
		User: c.User, Password: c.Password, Token: c.Token,
		CAFile: c.CAFile, CertFile: c.CertFile, KeyFile: c.KeyFile,
		Policy: dataflow.RemotePolicy{AllowedPaths: c.AllowedPaths, AllowEmbedded: c.AllowEmbedded},
	}
}
