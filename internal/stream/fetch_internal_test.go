package stream

import (
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/weir-streams/weir/internal/component"
)

// TestFetchSizesReachTheClient: broker.input.fetch.max.bytes and
// broker.input.fetch.max.partition.bytes, given or defaulted, are what the
// Kafka client is built with, and a size out of range is refused with its
// key. The client is only built, never connected: OptValue reads back what
// it was given.
func TestFetchSizesReachTheClient(t *testing.T) {
	spec := Spec()
	base := map[string]string{KeyInputTopics: "raw", KeyOutputTopics: "events", KeyErrorTopics: "errors", KeyBrokerList: "127.0.0.1:9"}
	for _, c := range []struct {
		name           string
		set            map[string]string
		maxB, maxPartB int32
	}{
		{"defaults", nil, DefaultFetchMaxBytes, DefaultFetchMaxPartBytes},
		{"given", map[string]string{KeyFetchMaxBytes: "1048576", KeyFetchMaxPartBytes: "524288"}, 1 << 20, 512 << 10},
	} {
		t.Run(c.name, func(t *testing.T) {
			raw := map[string]string{}
			for k, v := range base {
				raw[k] = v
			}
			for k, v := range c.set {
				raw[k] = v
			}
			conf, probs := component.NewConfig(&spec, raw)
			if len(probs) > 0 {
				t.Fatal(probs)
			}
			sc, err := Decode("s", conf)
			if err != nil {
				t.Fatal(err)
			}
			cl, err := kgo.NewClient(append(fetchOpts(sc), kgo.SeedBrokers("127.0.0.1:9"))...)
			if err != nil {
				t.Fatal(err)
			}
			defer cl.Close()
			if got := cl.OptValue(kgo.FetchMaxBytes); got != c.maxB {
				t.Errorf("FetchMaxBytes %v, want %d", got, c.maxB)
			}
			if got := cl.OptValue(kgo.FetchMaxPartitionBytes); got != c.maxPartB {
				t.Errorf("FetchMaxPartitionBytes %v, want %d", got, c.maxPartB)
			}
		})
	}
	raw := map[string]string{KeyFetchMaxPartBytes: "1000"}
	for k, v := range base {
		raw[k] = v
	}
	if _, probs := component.NewConfig(&spec, raw); len(probs) != 1 || probs[0].Key != KeyFetchMaxPartBytes || !strings.Contains(probs[0].Msg, "16384") {
		t.Errorf("a partition fetch of 1000 bytes: problems %v, want one naming %s and its bound", probs, KeyFetchMaxPartBytes)
	}
}
