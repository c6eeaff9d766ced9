package remote_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/dataflow"
	"github.com/weir-streams/weir/internal/engine"
	"github.com/weir-streams/weir/internal/streamtest"
)

// waitPushWith waits for a pushed snapshot that satisfies ok.
func waitPushWith(t *testing.T, api *apiServer, ok func(p push) bool) push {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		p := api.waitPush(t, time.Until(deadline))
		if ok(p) {
			return p
		}
	}
	t.Fatalf("no matching snapshot pushed; last: %+v", api.pushes()[len(api.pushes())-1].df)
	return push{}
}

func withDocDB(df *dataflow.DataFlow, uri string) *dataflow.DataFlow {
	df.Services = append(df.Services, dataflow.Component{Name: "store", Component: "pkg.service.docdb.DocDBControllerService",
		Config: streamtest.Props("docdb.uri", uri, "docdb.db.name", "weir", "docdb.collection.name", "events")})
	return df
}

// Broken dataflows are refused while the running one keeps processing, and
// a snapshot with the old timestamps and the reason is pushed at once.
// Snapshots never carry a sensitive value.
func TestBrokenDataflowRefusedAndPushed(t *testing.T) {
	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "raw", 2)
	e := streamtest.NewEngine(t, engine.Settings{AppName: "broken"})
	api := newAPIServer(t)
	api.user, api.pass = "weir", "api-pw-1"
	set := settings(api.srv.URL, "broken")
	set.User, set.Password = "weir", "api-pw-1"
	// The unstartable service's CA file lies there: the job allows it.
	set.Policy.AllowedPaths = []string{"/nonexistent"}
	logs := &logBuffer{}
	c := newClient(t, set, e, t.TempDir(), logs)
	f := newFeeder(t, b)
	t0 := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	// The running dataflow holds a secret: the password of a MongoDB URI
	// (a database that is not there; the service starts and retries).
	const secret = "mongo-s3cret"
	api.serveDataflow(withDocDB(typed(b.Addr, t0, t0, "good"), "mongodb://weir:"+secret+"@127.0.0.1:1/weir?serverSelectionTimeoutMS=200"), "rev 1")
	runClient(t, c)
	p := waitPushWith(t, api, func(p push) bool { return p.df["lastModified"] == "2026-11-25T10:00:00Z" })
	if p.query != "jobId=broken" || p.header.Get("Content-Type") != "application/json" {
		t.Fatalf("push query %q, headers %v", p.query, p.header)
	}
	if u, pw, ok := (&httpRequest{p.header}).basicAuth(); !ok || u != "weir" || pw != "api-pw-1" {
		t.Fatalf("push without the basic credentials: %v", p.header)
	}
	f.feed(10, "good")

	badRegex := typed(b.Addr, t0, t0.Add(time.Minute), "bad")
	badRegex.Streams[0].Pipeline.Processors[0].Config[1].Value = "([a-z"
	unknown := typed(b.Addr, t0.Add(time.Hour), t0.Add(time.Hour), "bad")
	unknown.Streams[0].Pipeline.Processors[0].Component = "pkg.processor.SplitTxt"
	// Valid, but the service cannot start: the driver cannot read its CA
	// file.
	unstartable := withDocDB(typed(b.Addr, t0.Add(2*time.Hour), t0, "bad"), "mongodb://127.0.0.1:1/?tls=true&tlsCAFile=/nonexistent/weir-ca.pem")
	for i, tc := range []struct {
		name   string
		df     *dataflow.DataFlow
		reason string
	}{
		{"unknown component", unknown, `did you mean "pkg.processor.SplitText"`},
		{"bad regex", badRegex, "invalid regular expression"},
		{"unstartable service", unstartable, `start service "store"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			api.serveDataflow(tc.df, fmt.Sprintf("rev bad %d", i))
			p := waitPushWith(t, api, func(p push) bool {
				r, _ := p.df["modificationReason"].(string)
				return strings.Contains(r, tc.reason)
			})
			// The old timestamps tell the server the change did not take.
			if p.df["lastModified"] != "2026-11-25T10:00:00Z" {
				t.Fatalf("pushed lastModified %v, want the running one", p.df["lastModified"])
			}
			r := p.df["modificationReason"].(string)
			if !strings.HasPrefix(r, "refused dataflow lastModified "+tc.df.LastModified.Format(time.RFC3339)) {
				t.Fatalf("modificationReason %q does not name the refused dataflow", r)
			}
			f.feed(10, "good")
			if e.Generation("parsing") != 1 || !e.Snapshot().LastModified.Equal(t0) {
				t.Fatal("the running dataflow changed")
			}
		})
	}
	// Each broken body was submitted once, however many polls saw it.
	refused := 0.0
	for _, kind := range []string{"dataflow", "pipeline"} {
		refused += metric(t, e, "weir_remote_applies_total", "kind", kind, "result", "refused")
	}
	if refused != 3 {
		t.Fatalf("refusals = %v, want 3", refused)
	}
	// No snapshot and no log line holds a secret.
	for _, p := range api.pushes() {
		s := fmt.Sprint(p.df)
		if strings.Contains(s, secret) || strings.Contains(s, "api-pw-1") {
			t.Fatalf("a pushed snapshot holds a secret: %s", s)
		}
		if !strings.Contains(s, "******") {
			t.Fatalf("a pushed snapshot does not show the redacted URI: %s", s)
		}
	}
	if strings.Contains(logs.String(), secret) || strings.Contains(logs.String(), "api-pw-1") {
		t.Fatalf("the log holds a secret:\n%s", logs.String())
	}
	if metric(t, e, "weir_remote_pushes_total", "result", "ok") < 4 {
		t.Fatal("fewer pushes than changes")
	}
}

// The periodic push: every push.rate, with nothing changing.
func TestPeriodicPush(t *testing.T) {
	api := newAPIServer(t)
	e := streamtest.NewEngine(t, engine.Settings{AppName: "tick"})
	set := settings(api.srv.URL, "tick")
	set.PushRate = 30 * time.Millisecond
	c := newClient(t, set, e, "", nil)
	runClient(t, c)
	for range 5 {
		p := api.waitPush(t, 10*time.Second)
		// Nothing runs: the epoch, older than any dataflow.
		if p.df["lastModified"] != "1970-01-01T00:00:00Z" {
			t.Fatalf("snapshot of nothing running: %v", p.df)
		}
	}
}

type httpRequest struct{ h map[string][]string }

func (r *httpRequest) basicAuth() (string, string, bool) {
	req, _ := newRequestWithHeader(r.h)
	return req.BasicAuth()
}

var _ = context.Background
