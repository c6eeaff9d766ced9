package stream

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl"
	"github.com/twmb/franz-go/pkg/sasl/oauth"
	"github.com/twmb/franz-go/pkg/sasl/plain"
	"github.com/twmb/franz-go/pkg/sasl/scram"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/localfile"
)

// The stream's Kafka security keys. They carry librdkafka's (and kcat's -X)
// names behind the stream's broker. prefix, so that a user can copy them
// from a working kcat line. The OAUTHBEARER token keys have no librdkafka
// counterpart (librdkafka takes a token only from a callback or OIDC).
const (
	KeySecurityProtocol = "broker.security.protocol"
	KeySASLMechanism    = "broker.sasl.mechanism"
	KeySASLUsername     = "broker.sasl.username"
	KeySASLPassword     = "broker.sasl.password"
	KeyOAuthToken       = "broker.sasl.oauthbearer.token"
	KeyOAuthTokenFile   = "broker.sasl.oauthbearer.token.location"
	KeySSLCA            = "broker.ssl.ca.location"
	KeySSLCert          = "broker.ssl.certificate.location"
	KeySSLKey           = "broker.ssl.key.location"
	KeySSLEndpointID    = "broker.ssl.endpoint.identification.algorithm"
)

// Security protocols and SASL mechanisms, as librdkafka spells them.
const (
	ProtocolPlaintext     = "PLAINTEXT"
	ProtocolSSL           = "SSL"
	ProtocolSASLPlaintext = "SASL_PLAINTEXT"
	ProtocolSASLSSL       = "SASL_SSL"

	MechanismPlain       = "PLAIN"
	MechanismSCRAM256    = "SCRAM-SHA-256"
	MechanismSCRAM512    = "SCRAM-SHA-512"
	MechanismOAuthBearer = "OAUTHBEARER"
)

func securityProperties() []component.Property {
	return []component.Property{
		{Key: KeySecurityProtocol, Description: "How the stream talks to Kafka (consumer, producer and the admin client that creates topics): PLAINTEXT, SSL (TLS), SASL_PLAINTEXT (SASL without TLS: the password of PLAIN crosses the network in clear) or SASL_SSL.", Default: ProtocolPlaintext, Validator: component.Enum(ProtocolPlaintext, ProtocolSSL, ProtocolSASLPlaintext, ProtocolSASLSSL)},
		{Key: KeySASLMechanism, Description: "SASL mechanism with SASL_PLAINTEXT and SASL_SSL: PLAIN, SCRAM-SHA-256, SCRAM-SHA-512 (these three take " + KeySASLUsername + " and " + KeySASLPassword + ") or OAUTHBEARER (takes " + KeyOAuthToken + " or " + KeyOAuthTokenFile + ").", Default: MechanismPlain, Validator: component.Enum(MechanismPlain, MechanismSCRAM256, MechanismSCRAM512, MechanismOAuthBearer)},
		{Key: KeySASLUsername, Description: "SASL user name (PLAIN and SCRAM)."},
		{Key: KeySASLPassword, Description: "SASL password (PLAIN and SCRAM). Write ${file:/run/secrets/name} to read it from a file.", Sensitive: true},
		{Key: KeyOAuthToken, Description: "Static OAUTHBEARER token.", Sensitive: true},
		{Key: KeyOAuthTokenFile, Description: "File holding the OAUTHBEARER token, read again at each authentication (each new connection), so a token renewed by another process is used without a restart."},
		{Key: KeySSLCA, Description: "PEM file of the certificate authorities that sign the brokers' certificates (SSL, SASL_SSL). Empty: the system's authorities."},
		{Key: KeySSLCert, Description: "PEM file of the client certificate, for brokers that require one (mutual TLS); with " + KeySSLKey + "."},
		{Key: KeySSLKey, Description: "PEM file of the client certificate's private key (unencrypted)."},
		{Key: KeySSLEndpointID, Description: "https: the broker's certificate must name the host it is reached at. none: any certificate signed by a trusted authority is accepted (logged as a warning at start).", Default: "https", Validator: component.Enum("https", "none")},
	}
}

// Security is a stream's Kafka security configuration, as written: the
// key group of broker.security.protocol, broker.sasl.* and broker.ssl.*,
// embedded in StreamConfig. Its keys are checked against each other when
// the stream builds its clients (check), before anything reaches the
// network.
type Security struct {
	Protocol       string `key:"broker.security.protocol"`
	Mechanism      string `key:"broker.sasl.mechanism"`
	Username       string `key:"broker.sasl.username"`
	Password       string `key:"broker.sasl.password"`
	OAuthToken     string `key:"broker.sasl.oauthbearer.token"`
	OAuthTokenFile string `key:"broker.sasl.oauthbearer.token.location"`
	CAFile         string `key:"broker.ssl.ca.location"`
	CertFile       string `key:"broker.ssl.certificate.location"`
	KeyFile        string `key:"broker.ssl.key.location"`
	EndpointID     string `key:"broker.ssl.endpoint.identification.algorithm"`
}

// usesTLS and usesSASL say what the protocol asks for.
func (s Security) usesTLS() bool {
	return s.Protocol == ProtocolSSL || s.Protocol == ProtocolSASLSSL
}

func (s Security) usesSASL() bool {
	return s.Protocol == ProtocolSASLPlaintext || s.Protocol == ProtocolSASLSSL
}

// check reports keys that contradict each other, naming them. It runs when
// the stream is built, before anything reaches the network.
func (s Security) check() error {
	if s.usesSASL() {
		switch s.Mechanism {
		case MechanismOAuthBearer:
			if (s.OAuthToken == "") == (s.OAuthTokenFile == "") {
				return fmt.Errorf("%s %s needs exactly one of %s and %s", KeySASLMechanism, s.Mechanism, KeyOAuthToken, KeyOAuthTokenFile)
			}
		default:
			if s.Username == "" || s.Password == "" {
				return fmt.Errorf("%s %s needs %s and %s", KeySASLMechanism, s.Mechanism, KeySASLUsername, KeySASLPassword)
			}
		}
	}
	if (s.CertFile == "") != (s.KeyFile == "") {
		return fmt.Errorf("%s and %s go together (mutual TLS)", KeySSLCert, KeySSLKey)
	}
	if !s.usesTLS() && (s.CAFile != "" || s.CertFile != "") {
		return fmt.Errorf("%s or %s is set but %s is %s; use SSL or SASL_SSL", KeySSLCA, KeySSLCert, KeySecurityProtocol, s.Protocol)
	}
	return nil
}

// clientOpts returns the franz-go options that make every client of the
// stream (consumer and producer, admin) speak the configured protocol.
// Files are read now, so that a missing or malformed one is an error at
// start naming its key.
func (s Security) clientOpts(log *slog.Logger) ([]kgo.Opt, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	var opts []kgo.Opt
	if s.usesTLS() {
		cfg, err := s.tlsConfig()
		if err != nil {
			return nil, err
		}
		if s.EndpointID == "none" {
			log.Warn("the brokers' certificates are not checked against their host names", "key", KeySSLEndpointID, "value", "none")
		}
		opts = append(opts, kgo.DialTLSConfig(cfg))
	}
	if s.usesSASL() {
		opts = append(opts, kgo.SASL(s.mechanism()))
	}
	return opts, nil
}

func (s Security) tlsConfig() (*tls.Config, error) {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if s.CAFile != "" {
		pem, err := localfile.Read(s.CAFile, localfile.PEM)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", KeySSLCA, err)
		}
		cfg.RootCAs = x509.NewCertPool()
		if !cfg.RootCAs.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("%s: %s holds no PEM certificate", KeySSLCA, s.CAFile)
		}
	}
	if s.CertFile != "" {
		cert, err := localfile.KeyPair(s.CertFile, s.KeyFile)
		if err != nil {
			return nil, fmt.Errorf("%s, %s: %w", KeySSLCert, KeySSLKey, err)
		}
		cfg.Certificates = []tls.Certificate{cert}
	}
	if s.EndpointID == "none" {
		// Skip Go's verification, which checks the chain and the host name
		// together, and check the chain alone: "none" turns off the host
		// name check only, as in librdkafka.
		roots := cfg.RootCAs
		cfg.InsecureSkipVerify = true
		cfg.VerifyConnection = func(cs tls.ConnectionState) error {
			if len(cs.PeerCertificates) == 0 {
				return errors.New("the broker sent no certificate")
			}
			inter := x509.NewCertPool()
			for _, c := range cs.PeerCertificates[1:] {
				inter.AddCert(c)
			}
			_, err := cs.PeerCertificates[0].Verify(x509.VerifyOptions{Roots: roots, Intermediates: inter})
			return err
		}
	}
	return cfg, nil
}

func (s Security) mechanism() sasl.Mechanism {
	switch s.Mechanism {
	case MechanismSCRAM256:
		return scram.Auth{User: s.Username, Pass: s.Password}.AsSha256Mechanism()
	case MechanismSCRAM512:
		return scram.Auth{User: s.Username, Pass: s.Password}.AsSha512Mechanism()
	case MechanismOAuthBearer:
		if s.OAuthToken != "" {
			return oauth.Auth{Token: s.OAuthToken}.AsMechanism()
		}
		file := s.OAuthTokenFile
		// Read at each authentication: a token renewed in the file is used
		// by the next connection without a restart.
		return oauth.Oauth(func(context.Context) (oauth.Auth, error) {
			b, err := localfile.Read(file, localfile.Secret)
			if err != nil {
				return oauth.Auth{}, fmt.Errorf("%s: %w", KeyOAuthTokenFile, err)
			}
			return oauth.Auth{Token: strings.TrimSpace(string(b))}, nil
		})
	default:
		return plain.Auth{User: s.Username, Pass: s.Password}.AsMechanism()
	}
}

// explain adds what a user should check to an error met while reaching the
// brokers, for the failures users meet most: a wrong password, an unknown
// certificate authority, a certificate for another host, a mechanism the
// broker does not enable.
func (s Security) explain(err error) error {
	var (
		unknownAuthority x509.UnknownAuthorityError
		hostname         x509.HostnameError
		certInvalid      x509.CertificateInvalidError
	)
	switch {
	case errors.Is(err, kerr.SaslAuthenticationFailed):
		return fmt.Errorf("%w (wrong %s or %s for %s?)", err, KeySASLUsername, KeySASLPassword, s.Mechanism)
	case errors.Is(err, kerr.UnsupportedSaslMechanism):
		return fmt.Errorf("%w (the broker does not enable %s %s)", err, KeySASLMechanism, s.Mechanism)
	case errors.As(err, &unknownAuthority):
		return fmt.Errorf("%w (the broker's certificate is not signed by an authority in %s)", err, caSource(s.CAFile))
	case errors.As(err, &hostname):
		return fmt.Errorf("%w (the broker's certificate is for another host; %s none turns this check off)", err, KeySSLEndpointID)
	case errors.As(err, &certInvalid):
		return fmt.Errorf("%w (the broker's certificate is not valid)", err)
	}
	return err
}

func caSource(file string) string {
	if file == "" {
		return "the system's store (set " + KeySSLCA + ")"
	}
	return KeySSLCA + " " + file
}
