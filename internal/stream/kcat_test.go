package stream_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/weir-streams/weir/internal/engine"
	"github.com/weir-streams/weir/internal/stream"
	"github.com/weir-streams/weir/internal/streamtest"
)

// advertiseSASLHandshakeV0 corrects a difference of kfake from Kafka: kfake
// advertises SaslHandshake (key 17) from version 1 only, where Kafka
// advertises versions 0 to 1, and librdkafka 2.0 (Debian's kcat) refuses a
// broker whose range does not start at 0. The control function answers
// ApiVersions with kfake's own answer, fetched once through a client of the
// test, with SaslHandshake's minimum lowered to 0; clients still use
// version 1, the highest both sides know.
func advertiseSASLHandshakeV0(t *testing.T, c *kfake.Cluster, addr string, pki testPKI) {
	t.Helper()
	cl := secureClient(t, addr, pki)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	resp, err := kmsg.NewPtrApiVersionsRequest().RequestWith(ctx, cl)
	if err != nil {
		t.Fatalf("ApiVersions: %v", err)
	}
	keys := append([]kmsg.ApiVersionsResponseApiKey(nil), resp.ApiKeys...)
	for i := range keys {
		if keys[i].ApiKey == 17 {
			keys[i].MinVersion = 0
		}
	}
	c.ControlKey(18, func(req kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		r := req.(*kmsg.ApiVersionsRequest)
		out := r.ResponseKind().(*kmsg.ApiVersionsResponse)
		out.ApiKeys = append([]kmsg.ApiVersionsResponseApiKey(nil), keys...)
		return out, nil, true
	})
}

// TestKcatOverSASLSSL: kcat writes access-log lines to the broker over
// SASL_SSL with the credentials and CA file the stream uses, the stream
// parses them, and kcat reads the results back.
func TestKcatOverSASLSSL(t *testing.T) {
	kcat, err := exec.LookPath("kcat")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("kcat is not installed; scripts/test installs it: %v", err)
		}
		t.Skip("kcat is not installed (scripts/test installs it; CI fails here)")
	}
	pki := newPKI(t)
	c, addr := startSecureBroker(t, &pki.good)
	advertiseSASLHandshakeV0(t, c, addr, pki)
	for _, mech := range []string{stream.MechanismPlain, stream.MechanismSCRAM256} {
		t.Run(mech, func(t *testing.T) {
			name := "kcat_" + strings.ReplaceAll(strings.ToLower(mech), "-", "_")
			// The same settings, as kcat -X takes them and as the stream's
			// keys (the stream's, behind broker.).
			x := []string{"security.protocol=SASL_SSL", "sasl.mechanism=" + mech, "sasl.username=" + testUser,
				"sasl.password=" + testPass, "ssl.ca.location=" + pki.caFile}
			var args []string
			var props []string
			for _, kv := range x {
				args = append(args, "-X", kv)
				k, v, _ := strings.Cut(kv, "=")
				props = append(props, "broker."+k, v)
			}
			e := streamtest.NewEngine(t, engine.Settings{AppName: name})
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			if err := e.Apply(ctx, dataflowOf(secureStream(name, addr, props...))); err != nil {
				t.Fatalf("apply: %v", err)
			}
			lines := streamtest.AccessLogLines(t)[:30]
			produce := exec.CommandContext(ctx, kcat, append([]string{"-b", addr, "-P", "-t", name + "_in"}, args...)...)
			produce.Stdin = strings.NewReader(strings.Join(lines, "\n") + "\n")
			if out, err := produce.CombinedOutput(); err != nil {
				t.Fatalf("kcat -P: %v: %s", err, out)
			}
			consume := exec.CommandContext(ctx, kcat, append([]string{"-b", addr, "-C", "-t", name + "_out", "-o", "beginning",
				"-c", fmt.Sprint(len(lines)), "-q"}, args...)...)
			out, err := consume.Output()
			if err != nil {
				t.Fatalf("kcat -C: %v: %s", err, out)
			}
			got := strings.Count(string(out), "\n")
			if got != len(lines) || !strings.Contains(string(out), `"record_type"`) {
				t.Fatalf("kcat read %d records of %d:\n%s", got, len(lines), out)
			}
		})
	}
}
