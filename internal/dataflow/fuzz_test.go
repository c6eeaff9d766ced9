package dataflow_test

import (
	"encoding/json"
	"testing"

	"github.com/weir-streams/weir/internal/dataflow"
	"github.com/weir-streams/weir/internal/plugins/all"
)

// FuzzDecodeDataflow feeds the dataflow JSON decoder, and the validation
// that follows it, arbitrary documents (as the REST API could send): no
// panic, and a dataflow that validates has a plan for each stream.
func FuzzDecodeDataflow(f *testing.F) {
	f.Add(`{"streams":[{"name":"s","component":"pkg.stream.engine.BrokerRecordStreamParallelProcessing","config":[{"key":"broker.input.topics","value":"in"},{"key":"broker.error.topics","value":"e"},{"key":"broker.metadata.broker.list","value":"embedded"},{"key":"broker.sasl.password","value":"x"}],"pipeline":{"processors":[{"name":"p","component":"pkg.processor.SplitText","config":[{"key":"value.regex","value":"(a)"},{"key":"value.fields","value":"f"}]}]}}]}`)
	f.Add(`{"streams":[{"name":"s","component":"nope"}],"services":[{"name":"c","component":"pkg.service.cache.LRUKeyValueCacheService"}]}`)
	f.Add(`{"lastModified":"2026-01-01T00:00:00Z","streams":null}`)
	reg := all.NewRegistry()
	f.Fuzz(func(t *testing.T, doc string) {
		var df dataflow.DataFlow
		if err := json.Unmarshal([]byte(doc), &df); err != nil {
			return
		}
		plan, probs := dataflow.Check(&df, reg)
		if len(probs) == 0 && plan == nil {
			t.Fatal("no problem and no plan")
		}
		if len(probs) == 0 && len(plan.Streams) != len(df.Streams) {
			t.Fatalf("%d streams, %d planned", len(df.Streams), len(plan.Streams))
		}
	})
}
