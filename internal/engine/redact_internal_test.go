package engine

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/dataflow"
	"github.com/weir-streams/weir/internal/plugins/docdb"
)

// TestRedactErrorQuotingMongoURI: an error that quotes a MongoDB URI, whole
// or its password alone, escaped or not, prints it redacted, and still
// unwraps to its cause.
func TestRedactErrorQuotingMongoURI(t *testing.T) {
	uri := "mongodb://weir:p%40ss-W0rd@127.0.0.1:27017/?authSource=admin"
	df := &dataflow.DataFlow{Services: []dataflow.Component{{Name: "db", Component: docdb.ServiceName,
		Config: []dataflow.Property{{Key: docdb.KeyURI, Value: uri}}}}}
	reg := component.NewRegistry()
	reg.Register(docdb.ServiceSpec())
	cause := errors.New("server selection timeout")
	for _, quoted := range []string{uri, "p%40ss-W0rd", "p@ss-W0rd"} {
		err := redactError(fmt.Errorf("connect to %s: %w", quoted, cause), secretsOf(reg, df))
		if strings.Contains(err.Error(), "p%40ss-W0rd") || strings.Contains(err.Error(), "p@ss-W0rd") {
			t.Errorf("error shows the password: %v", err)
		}
		if !strings.Contains(err.Error(), component.Redacted) {
			t.Errorf("error %q has no %s in place of the secret", err, component.Redacted)
		}
		if !errors.Is(err, cause) {
			t.Errorf("redacted error no longer wraps its cause")
		}
	}
}
