package stream

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOAuthTokenFileReadAgain: the OAUTHBEARER token file is read at each
// authentication, so a renewed token is sent on the next connection. kfake
// does not enable OAUTHBEARER, so the mechanism's first message, which
// carries the token, is checked here.
// brokerAddr is the address a SASL mechanism is told it authenticates to.
// OAUTHBEARER only reads its token file, so nothing is dialed; port 0
// names no port at all.
const brokerAddr = "127.0.0.1:0"

func TestOAuthTokenFileReadAgain(t *testing.T) {
	file := filepath.Join(t.TempDir(), "token")
	s := Security{Protocol: ProtocolSASLSSL, Mechanism: MechanismOAuthBearer, OAuthTokenFile: file}
	if err := s.check(); err != nil {
		t.Fatal(err)
	}
	m := s.mechanism()
	for _, tok := range []string{"first-token", "renewed-token"} {
		if err := os.WriteFile(file, []byte(tok+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		_, msg, err := m.Authenticate(context.Background(), brokerAddr)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(msg), "auth=Bearer "+tok+"\x01") {
			t.Errorf("OAUTHBEARER message %q does not carry %q", msg, tok)
		}
	}
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	if _, _, err := m.Authenticate(context.Background(), brokerAddr); err == nil || !strings.Contains(err.Error(), KeyOAuthTokenFile) {
		t.Errorf("missing token file: %v, want an error naming %s", err, KeyOAuthTokenFile)
	}
}

// TestSecurityKeysThatContradict names the keys of each contradiction.
func TestSecurityKeysThatContradict(t *testing.T) {
	for _, c := range []struct {
		s    Security
		want string
	}{
		{Security{Protocol: ProtocolSASLSSL, Mechanism: MechanismPlain, Username: "u"}, KeySASLPassword},
		{Security{Protocol: ProtocolSASLPlaintext, Mechanism: MechanismOAuthBearer}, KeyOAuthToken},
		{Security{Protocol: ProtocolSSL, CertFile: "c.pem"}, KeySSLKey},
		{Security{Protocol: ProtocolPlaintext, CAFile: "ca.pem"}, KeySecurityProtocol},
	} {
		if err := c.s.check(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want an error naming %s", c.s, err, c.want)
		}
	}
}
