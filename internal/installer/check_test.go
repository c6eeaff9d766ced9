package installer

import (
	"strings"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/dataflow"
	"github.com/weir-streams/weir/internal/pluginrpc"
	"github.com/weir-streams/weir/internal/streamtest"
)

// TestPluginCheckInValidation: a plugin processor's own Check runs when a
// dataflow is validated (as `weir validate` does), and each problem it
// finds joins the list with the others, at the processor's path; Weir's
// own plugin.timeout.ms is validated like any declared key.
func TestPluginCheckInValidation(t *testing.T) {
	reg, _ := installed(t)
	t0 := time.Unix(1000, 0)
	df := urlDataflow("127.0.0.1:9", t0, t0, true)
	url := &df.Streams[0].Pipeline.Processors[1]
	url.Config = append(url.Config, streamtest.Props("path.field", "u", "extension.field", "u", "query.keep", "utm_source", "query.max", "0")...)
	// A second stream whose plugin processor has a bad timeout: reported
	// with the first stream's problems, all at once.
	df2 := urlDataflow("127.0.0.1:9", t0, t0, true)
	s2 := df2.Streams[0]
	s2.Name = "other"
	s2.Pipeline.Processors[1].Config = append(s2.Pipeline.Processors[1].Config, streamtest.Props(pluginrpc.TimeoutKey, "0")...)
	df.Streams = append(df.Streams, s2)

	_, probs := dataflow.Check(df, reg)
	text := probs.Error()
	for _, want := range []string{
		`path.field and extension.field both name field "u"`,
		"query.keep lists parameters but query.max is 0",
		pluginrpc.TimeoutKey,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("problems lack %q:\n%s", want, text)
		}
	}
	if len(probs) != 3 {
		t.Errorf("%d problems, want 3:\n%s", len(probs), text)
	}
	for _, p := range probs {
		if !strings.Contains(p.Path, "[url]") {
			t.Errorf("problem %q is not at the plugin processor", p)
		}
	}

	// The same dataflow again: the answers come from the memo (the plugin
	// is not started again) and are the same.
	if _, again := dataflow.Check(df, reg); again.Error() != text {
		t.Errorf("second validation differs:\n%s\nfirst:\n%s", again.Error(), text)
	}

	// Valid settings pass the plugin's check.
	ok := urlDataflow("127.0.0.1:9", t0, t0, true)
	if _, probs := dataflow.Check(ok, reg); len(probs) != 0 {
		t.Fatalf("valid dataflow refused: %v", probs)
	}
}
