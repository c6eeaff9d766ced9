package config_test

import (
	"strings"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/config"
)

// TestLogIslandRoleTypeIgnored checks that LogIsland's role words in
// "type" beside "component" are accepted (its job files have them), while
// an identifier in both is still refused.
func TestLogIslandRoleTypeIgnored(t *testing.T) {
	job := func(typ string) string {
		return `
engine:
  component: pkg.engine.engine.BrokerStreamProcessingEngine
  type: engine
  streamConfigurations:
    - stream: s
      component: pkg.stream.engine.BrokerRecordStreamParallelProcessing
      type: stream
      configuration:
        broker.input.topics: a
      processorConfigurations:
        - processor: p
          component: pkg.processor.SplitText
          type: ` + typ + `
`
	}
	env := func(string) (string, bool) { return "", false }
	j, err := config.Parse([]byte(job("parser")), time.Unix(1, 0), env)
	if err != nil {
		t.Fatalf("role word refused: %v", err)
	}
	if got := j.DataFlow.Streams[0].Pipeline.Processors[0].Component; got != "pkg.processor.SplitText" {
		t.Errorf("component = %q", got)
	}
	if _, err := config.Parse([]byte(job("pkg.processor.SplitText")), time.Unix(1, 0), env); err == nil || !strings.Contains(err.Error(), "not both") {
		t.Errorf("an identifier in both keys: %v", err)
	}
}
