package remote_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/dataflow"
	"github.com/weir-streams/weir/internal/engine"
	"github.com/weir-streams/weir/internal/remote"
	"github.com/weir-streams/weir/internal/streamtest"
)

// logIslandBody is df as JSON with LogIsland's names of the stream and its
// keys, as a server written for LogIsland's REST API would send it, and one
// LogIsland key Weir ignores.
func logIslandBody(t *testing.T, df *dataflow.DataFlow) []byte {
	t.Helper()
	df.Streams[0].Config = append(df.Streams[0].Config, dataflow.Property{Key: "kafka.linger.ms", Value: "5"})
	b, err := json.Marshal(df)
	if err != nil {
		t.Fatal(err)
	}
	return []byte(strings.NewReplacer(
		`"pkg.stream.engine.BrokerRecordStreamParallelProcessing"`, `"pkg.stream.spark.KafkaRecordStreamParallelProcessing"`,
		`"key":"broker.`, `"key":"kafka.`,
	).Replace(string(b)))
}

// A dataflow from the REST API goes through the same mapping as a job file:
// LogIsland's stream and keys run, what is pushed back holds Weir's names
// only, the ignored key is logged, and a bad value is refused naming the key
// as the server wrote it.
func TestLogIslandNamesThroughTheAPI(t *testing.T) {
	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "raw", 2)
	e := streamtest.NewEngine(t, engine.Settings{AppName: "lis"})
	api := newAPIServer(t)
	logs := &logBuffer{}
	c := newClient(t, settings(api.srv.URL, "lis"), e, t.TempDir(), logs)
	t0 := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	body := logIslandBody(t, typed(b.Addr, t0, t0, "good"))
	if !strings.Contains(string(body), `"key":"kafka.input.topics"`) {
		t.Fatalf("the body is not in LogIsland's names: %s", body)
	}
	api.serveBody(body, "rev 1", "")
	runClient(t, c)
	p := waitPushWith(t, api, func(p push) bool { return p.df["lastModified"] == "2026-11-25T10:00:00Z" })
	pushed, err := json.Marshal(p.df)
	if err != nil {
		t.Fatal(err)
	}
	for _, old := range []string{"kafka.", "KafkaRecordStream"} {
		if strings.Contains(string(pushed), old) {
			t.Errorf("the snapshot holds %q: %s", old, pushed)
		}
	}
	if !strings.Contains(string(pushed), `"key":"broker.input.topics"`) {
		t.Errorf("the snapshot lacks broker.input.topics: %s", pushed)
	}
	newFeeder(t, b).feed(10, "good")
	if n := logs.count("LogIsland keys with no Weir equivalent are ignored"); n != 1 || !strings.Contains(logs.String(), "streams[parsing].config[kafka.linger.ms]") {
		t.Errorf("%d logs of the ignored keys:\n%s", n, logs)
	}

	bad := typed(b.Addr, t0.Add(time.Hour), t0.Add(time.Hour), "bad")
	bad.Streams[0].Config[3].Value = "four" // broker.topic.default.partitions
	api.serveBody(logIslandBody(t, bad), "rev 2", "")
	const want = `property "kafka.topic.default.partitions" (Weir's "broker.topic.default.partitions"): "four" is not an integer`
	p = waitPushWith(t, api, func(p push) bool {
		r, _ := p.df["modificationReason"].(string)
		return strings.Contains(r, want)
	})
	if p.df["lastModified"] != "2026-11-25T10:00:00Z" {
		t.Errorf("pushed lastModified %v after a refused change, want the running one", p.df["lastModified"])
	}
}

// A key given under both names is refused with its path.
func TestDecodeLogIslandKeyTwice(t *testing.T) {
	_, err := remote.Decode([]byte(`{"lastModified":"2026-11-25T10:00:00Z","streams":[{"name":"s","component":"pkg.stream.spark.KafkaRecordStreamParallelProcessing","config":[` +
		`{"key":"broker.input.topics","value":"a"},{"key":"kafka.input.topics","value":"b"}]}]}`))
	const want = `streams[s].config: property "kafka.input.topics" (LogIsland's name of "broker.input.topics") is also given as "broker.input.topics"; keep one`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("err = %v, want %q", err, want)
	}
	df, err := remote.Decode([]byte(`{"lastModified":"2026-11-25T10:00:00Z","streams":[{"name":"s","component":"pkg.stream.spark.KafkaRecordStreamParallelProcessing","config":[` +
		`{"key":"kafka.input.topics","value":"a"},{"key":"spark.app.name","value":"b"}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	// An engine key in a stream is not the stream's: it is left for the
	// engine's validation to refuse.
	if s := df.Streams[0]; s.Component.Component != "pkg.stream.engine.BrokerRecordStreamParallelProcessing" || s.Config[0].Key != "broker.input.topics" || s.Config[1].Key != "spark.app.name" {
		t.Fatalf("decoded %+v", s)
	}
}

// A misspelt LogIsland key in a REST body is refused with the key it looks
// like, as in a job file, rather than only called unknown by validation.
func TestDecodeLogIslandKeyMisspelt(t *testing.T) {
	_, err := remote.Decode([]byte(`{"lastModified":"2026-11-25T10:00:00Z","streams":[{"name":"s","component":"pkg.stream.spark.KafkaRecordStreamParallelProcessing","config":[` +
		`{"key":"kafka.input.topic","value":"a"}]}]}`))
	const want = `streams[s].config: unknown property "kafka.input.topic" (did you mean LogIsland's "kafka.input.topics"?)`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("err = %v, want %q", err, want)
	}
}
