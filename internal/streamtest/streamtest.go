// Package streamtest runs streams against a real Kafka-protocol broker in
// tests: an in-process kfake cluster on a free 127.0.0.1 port, an engine
// built from the full component registry, and helpers to produce input and
// read what the streams wrote.
package streamtest

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/dataflow"
	"github.com/weir-streams/weir/internal/engine"
	"github.com/weir-streams/weir/internal/metrics"
	"github.com/weir-streams/weir/internal/plugins/all"
	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/serialize"
	"github.com/weir-streams/weir/internal/stream"
)

// Broker is an in-process Kafka-protocol broker for one test.
type Broker struct {
	Cluster *kfake.Cluster
	Addr    string
	client  *kgo.Client
}

// StartBroker starts a broker on a free port; it is closed when the test
// ends.
func StartBroker(t testing.TB, opts ...kfake.Opt) *Broker {
	t.Helper()
	c, err := kfake.NewCluster(append([]kfake.Opt{kfake.NumBrokers(1), kfake.AllowAutoTopicCreation()}, opts...)...)
	if err != nil {
		t.Fatalf("start kfake: %v", err)
	}
	b := &Broker{Cluster: c, Addr: c.ListenAddrs()[0]}
	// MetadataMinAge short: Count's offset listing goes through the
	// client's cache of topic metadata, which franz-go keeps for
	// MetadataMinAge (5 s by default). A topic counted before the stream
	// created it stayed "unknown" (count 0) for those 5 s, long enough for
	// a fast machine to finish a test's whole backlog unseen.
	b.client, err = kgo.NewClient(kgo.SeedBrokers(b.Addr), kgo.ProducerLinger(5*time.Millisecond),
		kgo.MetadataMinAge(100*time.Millisecond))
	if err != nil {
		c.Close()
		t.Fatalf("kafka client: %v", err)
	}
	t.Cleanup(func() {
		b.client.Close()
		c.Close()
	})
	return b
}

// Admin returns an admin client on the broker's own client, for tests that
// read offsets, list or delete topics; it is closed with the broker.
func (b *Broker) Admin() *kadm.Client { return kadm.NewClient(b.client) }

// CreateTopic creates a topic with the given partitions.
func (b *Broker) CreateTopic(t testing.TB, topic string, partitions int32) {
	t.Helper()
	adm := kadm.NewClient(b.client)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := adm.CreateTopic(ctx, partitions, 1, nil, topic)
	if err == nil {
		err = resp.Err
	}
	if err != nil && !errors.Is(err, kerr.TopicAlreadyExists) {
		t.Fatalf("create topic %s: %v", topic, err)
	}
}

// Produce writes values to a topic, spread over its partitions by the key
// (the value's index), and waits until all are acknowledged.
func (b *Broker) Produce(t testing.TB, topic string, values [][]byte) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	const chunk = 5000
	for start := 0; start < len(values); start += chunk {
		end := min(start+chunk, len(values))
		rs := make([]*kgo.Record, 0, end-start)
		for i := start; i < end; i++ {
			rs = append(rs, &kgo.Record{Topic: topic, Key: []byte(fmt.Sprint(i)), Value: values[i]})
		}
		if err := b.client.ProduceSync(ctx, rs...).FirstErr(); err != nil {
			t.Fatalf("produce to %s: %v", topic, err)
		}
	}
}

// ProduceLines writes each line as one message.
func (b *Broker) ProduceLines(t testing.TB, topic string, lines []string) {
	t.Helper()
	vals := make([][]byte, len(lines))
	for i, l := range lines {
		vals[i] = []byte(l)
	}
	b.Produce(t, topic, vals)
}

// Consume reads a topic from the start until n messages arrived, and fails
// the test if they do not arrive within the timeout.
func (b *Broker) Consume(t testing.TB, topic string, n int, timeout time.Duration) []*kgo.Record {
	t.Helper()
	got, err := b.TryConsume(topic, n, timeout)
	if err != nil {
		t.Fatalf("consume %s: %v (got %d of %d)", topic, err, len(got), n)
	}
	return got
}

// TryConsume is Consume returning an error instead of failing.
func (b *Broker) TryConsume(topic string, n int, timeout time.Duration) ([]*kgo.Record, error) {
	cl, err := kgo.NewClient(kgo.SeedBrokers(b.Addr), kgo.ConsumeTopics(topic), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	if err != nil {
		return nil, err
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var out []*kgo.Record
	for len(out) < n {
		f := cl.PollFetches(ctx)
		if ctx.Err() != nil {
			return out, fmt.Errorf("timed out after %v", timeout)
		}
		f.EachRecord(func(r *kgo.Record) { out = append(out, r) })
	}
	return out, nil
}

// Count returns the number of messages in a topic (the sum of the end
// offsets of its partitions).
func (b *Broker) Count(t testing.TB, topic string) int64 {
	t.Helper()
	adm := kadm.NewClient(b.client)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	offs, err := adm.ListEndOffsets(ctx, topic)
	if err != nil {
		t.Fatalf("list end offsets of %s: %v", topic, err)
	}
	var n int64
	offs.Each(func(o kadm.ListedOffset) {
		if o.Err == nil {
			n += o.Offset
		}
	})
	return n
}

// WaitCount waits until a topic holds at least n messages.
func (b *Broker) WaitCount(t testing.TB, topic string, n int64, timeout time.Duration) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		got := b.Count(t, topic)
		if got >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("topic %s holds %d messages, want %d within %v", topic, got, n, timeout)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Decode parses JSON records written by a stream.
func Decode(t testing.TB, msgs []*kgo.Record) []*record.Record {
	t.Helper()
	out := make([]*record.Record, len(msgs))
	for i, m := range msgs {
		r := record.New("", "", 0)
		if err := (serialize.JSON{}).Deserialize(r, m.Key, m.Value); err != nil {
			t.Fatalf("decode message %d %q: %v", i, m.Value, err)
		}
		out[i] = r
	}
	return out
}

// Engine is an engine running in a test, with its metrics registry.
type Engine struct {
	*engine.Engine
	Metrics *prometheus.Registry
}

// StartEngine builds an engine with the full registry and applies df. The
// engine is stopped when the test ends.
func StartEngine(t testing.TB, set engine.Settings, df *dataflow.DataFlow) *Engine {
	t.Helper()
	e := NewEngine(t, set)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := e.Apply(ctx, df); err != nil {
		t.Fatalf("apply dataflow: %v", err)
	}
	return e
}

// NewEngine builds an engine that runs nothing yet; zero settings get
// test-friendly defaults (all cores, 20 ms batches).
func NewEngine(t testing.TB, set engine.Settings) *Engine {
	t.Helper()
	if set.AppName == "" {
		set.AppName = "weir-test"
	}
	if set.Workers == 0 {
		set.Workers = runtime.GOMAXPROCS(0)
	}
	if set.BatchInterval == 0 {
		set.BatchInterval = 20 * time.Millisecond
	}
	reg := prometheus.NewRegistry()
	e := engine.New(engine.Options{
		Settings: set,
		Registry: Registry(),
		Logger:   Logger(t),
		Metrics:  metrics.New(reg),
	})
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_ = e.Stop(ctx)
	})
	return &Engine{Engine: e, Metrics: reg}
}

// Registry returns the full component registry.
func Registry() *component.Registry { return all.NewRegistry() }

// Logger returns a logger that writes warnings and errors to the test log.
func Logger(t testing.TB) *slog.Logger {
	return slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// Stream returns a stream component reading in and writing out and errs
// through the given brokers, with extra keys.
func Stream(name, brokers, in, out, errs string, extra ...dataflow.Property) dataflow.Stream {
	cfg := []dataflow.Property{
		{Key: stream.KeyBrokerList, Value: brokers},
		{Key: stream.KeyInputTopics, Value: in},
		{Key: stream.KeyErrorTopics, Value: errs},
		{Key: stream.KeyPartitions, Value: "4"},
	}
	if out != "" {
		cfg = append(cfg, dataflow.Property{Key: stream.KeyOutputTopics, Value: out})
	}
	return dataflow.Stream{Component: dataflow.Component{Name: name, Component: stream.Name, Config: append(cfg, extra...)}}
}

// Processor returns a processor component.
func Processor(name, comp string, kv ...string) dataflow.Component {
	return dataflow.Component{Name: name, Component: comp, Config: Props(kv...)}
}

// Props builds a property list from key, value pairs.
func Props(kv ...string) []dataflow.Property {
	var out []dataflow.Property
	for i := 0; i+1 < len(kv); i += 2 {
		out = append(out, dataflow.Property{Key: kv[i], Value: kv[i+1]})
	}
	return out
}

// Root returns the repository root, found from this file's location.
func Root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}

// AccessLogLines returns the lines of the bundled real access log.
func AccessLogLines(t testing.TB) []string {
	t.Helper()
	f, err := os.Open(filepath.Join(Root(), "testdata", "access-logs", "apache_combined_10k.log"))
	if err != nil {
		t.Fatalf("open access log: %v", err)
	}
	defer f.Close()
	var lines []string
	r := bufio.NewReader(f)
	for {
		l, err := r.ReadString('\n')
		if l != "" {
			lines = append(lines, strings.TrimSuffix(l, "\n"))
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("read access log: %v", err)
		}
	}
	return lines
}

// ApacheRegex is the spec's sample regular expression: nine groups.
const ApacheRegex = `(\S+)\s+(\S+)\s+(\S+)\s+\[([\w:/]+\s[+\-]\d{4})\]\s+"(\S+)\s+(\S+)\s*(\S*)"\s+(\S+)\s+(\S+)`

// ApacheFields are the field names of ApacheRegex.
const ApacheFields = "src_ip,identd,user,record_time,http_method,http_query,http_version,http_status,bytes_out"

// ApacheEnrichRegex adds the referer and user agent: eleven groups. The
// closing quote of the user agent is optional because real logs hold
// truncated lines (line 8899 of the bundled log).
const ApacheEnrichRegex = ApacheRegex + `\s+"([^"]*)"\s+"([^"]*)"?`

// ApacheEnrichFields are the field names of ApacheEnrichRegex.
const ApacheEnrichFields = ApacheFields + ",http_referer,http_user_agent"

// ApacheParser returns a SplitText processor named apache_parser that
// parses access-log lines into apache_log records: the spec's 9-group
// sample regex, or with enrich the 11-group variant with referer and user
// agent.
func ApacheParser(enrich bool) dataflow.Component {
	regex, fields := ApacheRegex, ApacheFields
	if enrich {
		regex, fields = ApacheEnrichRegex, ApacheEnrichFields
	}
	return Processor("apache_parser", "pkg.processor.SplitText", "record.type", "apache_log", "value.regex", regex, "value.fields", fields)
}

// SyncBuffer is a bytes.Buffer that goroutines may write to while a test
// reads it: a logger's or a command's output.
type SyncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Write appends p.
func (b *SyncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String returns what was written so far.
func (b *SyncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
