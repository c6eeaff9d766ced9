package useragent_test

import (
	"path/filepath"
	"testing"

	"github.com/weir-streams/weir/internal/config"
	"github.com/weir-streams/weir/internal/dataflow"
	"github.com/weir-streams/weir/internal/plugins/all"
	"github.com/weir-streams/weir/internal/plugins/useragent"
	"github.com/weir-streams/weir/internal/streamtest"
)

// TestEnrichSampleJobValidates loads the enrichment sample job as the
// weir command does and validates it against the full registry, so that the
// file stays runnable as it is.
func TestEnrichSampleJobValidates(t *testing.T) {
	t.Setenv("BROKER_LIST", "")
	checked, err := config.LoadChecked(filepath.Join(streamtest.Root(), "conf", "index-apache-logs-enrich.yml"), config.DefaultMaxJobBytes, all.NewRegistry())
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	job := checked.Job
	// The job parses with the spec's 11-group regex and analyses its
	// user-agent group.
	var parser, ua *dataflow.Component
	for _, s := range job.DataFlow.Streams {
		for i := range s.Pipeline.Processors {
			p := &s.Pipeline.Processors[i]
			switch p.Component {
			case "pkg.processor.SplitText":
				parser = p
			case useragent.ParseUserAgentName:
				ua = p
			}
		}
	}
	if parser == nil || ua == nil {
		t.Fatalf("job lacks SplitText or ParseUserAgent")
	}
	pv, uv := parser.Values(), ua.Values()
	if pv["value.regex"] != streamtest.ApacheEnrichRegex || pv["value.fields"] != streamtest.ApacheEnrichFields {
		t.Errorf("SplitText regex or fields differ from the spec's enrichment variant: %q %q", pv["value.regex"], pv["value.fields"])
	}
	if uv["useragent.field"] != "http_user_agent" {
		t.Errorf("ParseUserAgent reads %q, want http_user_agent", uv["useragent.field"])
	}
}
