package all_test

import (
	"context"
	"fmt"
	"log/slog"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/weir-streams/weir/internal/broker"
	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/dataflow"
	"github.com/weir-streams/weir/internal/engine"
	"github.com/weir-streams/weir/internal/engine/settings"
	"github.com/weir-streams/weir/internal/metrics"
	"github.com/weir-streams/weir/internal/plugins/alerting"
	"github.com/weir-streams/weir/internal/plugins/all"
	"github.com/weir-streams/weir/internal/plugins/dns"
	"github.com/weir-streams/weir/internal/plugins/dns/dnstest"
	"github.com/weir-streams/weir/internal/plugins/docdb"
	"github.com/weir-streams/weir/internal/plugins/redis"
	"github.com/weir-streams/weir/internal/plugins/searchindex"
	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/stream"
	"github.com/weir-streams/weir/internal/streamtest"
	"github.com/weir-streams/weir/internal/testserver/ferretdb"
	redisserver "github.com/weir-streams/weir/internal/testserver/redis"
)

// TestEveryComponentLifecycle runs every component of the registry through
// the lifecycle that component.go states: built with its defaults, the
// Example values of its properties and its DynamicExamples, started, given
// a batch, closed twice; and built then closed without start. After each component no goroutine
// may be left behind.
//
// The properties whose Examples name a server (a MongoDB URI, DNS servers,
// search-index hosts) or a file (the geo database) take instead the
// addresses of real servers this test starts on free ports (FerretDB, a
// DNS server, an HTTP server answering Elasticsearch's bulk API) and a real
// .mmdb file written for the test.
func TestEveryComponentLifecycle(t *testing.T) {
	mongo := ferretdb.New(t)
	dnsSrv := dnstest.Start(t)
	dnsSrv.AddPTR("127.0.0.1", "localhost.")
	dnsSrv.AddForward("localhost.", "127.0.0.1")
	searchURL, indexed := startSearchServer(t)
	redisSrv := redisserver.New(t)
	// By property key, whichever component declares it.
	local := map[string]string{
		docdb.KeyURI:            mongo.URI(),
		dns.KeyServers:          dnsSrv.Addr,
		searchindex.KeyHosts:    searchURL,
		redis.KeyConnection:     redisSrv.Addr(),
		"csv.file.path":         "../cache/testdata/logisland/timeseries-lookup.csv",
		"maxmind.database.path": writeGeoDatabase(t),
	}
	reg := all.NewRegistry()
	lc := &lifecycle{t: t, reg: reg, local: local}

	kinds := map[component.Kind]int{}
	indexerRan := false
	for _, spec := range reg.Specs() {
		kinds[spec.Kind]++
		t.Run(spec.Name, func(t *testing.T) {
			lc.t = t
			indexerRan = indexerRan || spec.Name == searchindex.ProcessorName
			before, _ := componentGoroutines()
			switch spec.Kind {
			case component.KindEngine:
				lc.engine(spec)
			case component.KindStream:
				lc.stream(spec)
			case component.KindProcessor:
				lc.processor(spec)
			case component.KindService:
				lc.service(spec)
			case component.KindSerializer:
				lc.serializer(spec)
			default:
				t.Fatalf("kind %v has no lifecycle test", spec.Kind)
			}
			noGoroutineLeft(t, before)
		})
	}
	// BulkAddSearchIndex indexed the sample batch through the service.
	if n := indexed.Load(); indexerRan && n < 10 {
		t.Errorf("the search server indexed %d documents, want at least the 10 of the sample batch", n)
	}
	for _, k := range component.Kinds {
		if kinds[k] == 0 {
			t.Errorf("the registry has no %v: the test covers nothing of that kind", k)
		}
	}
}

type lifecycle struct {
	t     *testing.T
	reg   *component.Registry
	local map[string]string // values that replace the Examples of these keys
}

// config validates the spec's defaults and Example values, as a job would.
func (lc *lifecycle) config(spec *component.Spec) component.Config {
	lc.t.Helper()
	values := map[string]string{}
	if spec.DynamicProperties && len(spec.DynamicExamples) == 0 {
		lc.t.Fatalf("%s takes dynamic keys but declares no DynamicExamples: the test would run it with none", spec.Name)
	}
	for k, v := range spec.DynamicExamples {
		values[k] = v
	}
	for _, p := range spec.Properties {
		if v, ok := lc.local[p.Key]; ok {
			values[p.Key] = v
		} else if p.Example != "" {
			values[p.Key] = p.Example
		}
	}
	// NewConfig runs the configuration's Validate too.
	conf, probs := component.NewConfig(spec, values)
	if len(probs) > 0 {
		lc.t.Fatalf("defaults and examples of %s are not valid: %v (add Example values to its required properties)", spec.Name, probs)
	}
	return conf
}

func (lc *lifecycle) env(name string, services component.ServiceLookup) component.Env {
	return component.Env{Name: name, Stream: "lifecycle", Logger: streamtest.Logger(lc.t),
		Metrics: metrics.New(prometheus.NewRegistry()), Services: services}
}

func (lc *lifecycle) engine(spec *component.Spec) {
	s, err := settings.Decode(lc.config(spec))
	if err != nil {
		lc.t.Fatalf("decode engine settings: %v", err)
	}
	if s.AppName == "" || s.Workers < 1 || s.BatchInterval <= 0 {
		lc.t.Fatalf("engine settings from the defaults: %+v", s)
	}
}

// stream runs a stream of the spec's defaults and examples on the embedded
// broker: started by an engine, fed one message, stopped twice; and an
// engine stopped without having started anything.
func (lc *lifecycle) stream(spec *component.Spec) {
	t := lc.t
	conf := lc.config(spec)
	var props []dataflow.Property
	for k, v := range conf.Values() {
		props = append(props, dataflow.Property{Key: k, Value: v})
	}
	df := &dataflow.DataFlow{LastModified: time.Unix(1, 0), Streams: []dataflow.Stream{{
		Component: dataflow.Component{Name: "lifecycle", Component: spec.Name, Config: props},
	}}}
	b := broker.New(broker.Options{Port: 0}, slog.New(slog.DiscardHandler))
	promReg := prometheus.NewRegistry()
	met := metrics.New(promReg)
	newEngine := func() *engine.Engine {
		return engine.New(engine.Options{
			Settings: engine.Settings{AppName: "lifecycle", Workers: 2, BatchInterval: 10 * time.Millisecond},
			Registry: lc.reg, Logger: streamtest.Logger(t), Metrics: met, Broker: b,
		})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	idle := newEngine()
	if err := idle.Stop(ctx); err != nil {
		t.Fatalf("stop before any apply: %v", err)
	}
	e := newEngine()
	if err := e.Apply(ctx, df); err != nil {
		t.Fatalf("apply: %v", err)
	}
	cl, err := kgo.NewClient(kgo.SeedBrokers(e.EmbeddedAddr()))
	if err != nil {
		t.Fatal(err)
	}
	sc, err := component.Typed[stream.StreamConfig](conf)
	if err != nil {
		t.Fatal(err)
	}
	in := sc.InputTopics[0]
	if err := cl.ProduceSync(ctx, &kgo.Record{Topic: in, Value: []byte("one line")}).FirstErr(); err != nil {
		t.Fatalf("produce: %v", err)
	}
	cl.Close()
	waitFor(t, func() bool { return counterSum(t, promReg, "weir_stream_records_in_total") >= 1 })
	for i := range 2 {
		if err := e.Stop(ctx); err != nil {
			t.Fatalf("stop %d: %v", i+1, err)
		}
	}
	for i := range 2 {
		if err := b.Close(ctx); err != nil {
			t.Fatalf("close broker %d: %v", i+1, err)
		}
	}
}

// processor builds the processor with its services, starts it, runs a
// batch, waits for its completions and closes it twice; then builds one
// and closes it without start.
func (lc *lifecycle) processor(spec *component.Spec) {
	t := lc.t
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	conf := lc.config(spec)
	services := lc.services(ctx, spec, conf)
	defer services.closeAll(ctx, t)

	p, err := spec.NewProcessor(conf, lc.env("lifecycle", services))
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	if s, ok := p.(component.Starter); ok {
		if err := s.Start(ctx); err != nil {
			t.Fatalf("start: %v", err)
		}
	}
	b := sampleBatch(t)
	n := len(b.Records)
	if err := p.Process(ctx, b); err != nil {
		t.Fatalf("process: %v", err)
	}
	for i, c := range b.Completions() {
		if _, err := c.Wait(ctx); err != nil {
			t.Fatalf("completion %d: %v", i, err)
		}
	}
	if len(b.Records) == 0 && n > 0 {
		t.Logf("the processor dropped the batch's %d records", n)
	}
	closeTwice(ctx, t, p)

	q, err := spec.NewProcessor(conf, lc.env("unstarted", services))
	if err != nil {
		t.Fatalf("build again: %v", err)
	}
	closeTwice(ctx, t, q)
}

// service builds, starts and closes the service twice, then builds one and
// closes it without start.
func (lc *lifecycle) service(spec *component.Spec) {
	t := lc.t
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	conf := lc.config(spec)
	svc, err := spec.NewService(ctx, conf, lc.env("lifecycle", serviceSet{}))
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	if s, ok := svc.(component.Starter); ok {
		if err := s.Start(ctx); err != nil {
			t.Fatalf("start: %v", err)
		}
	}
	closeTwice(ctx, t, svc)
	unstarted, err := spec.NewService(ctx, conf, lc.env("unstarted", serviceSet{}))
	if err != nil {
		t.Fatalf("build again: %v", err)
	}
	closeTwice(ctx, t, unstarted)
}

// serializer writes a record and reads it back.
func (lc *lifecycle) serializer(spec *component.Spec) {
	t := lc.t
	ser, err := spec.NewSerializer(lc.config(spec))
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	r := record.New("id-1", "lifecycle", 1)
	r.SetString(record.FieldValue, "one line")
	out, err := ser.Serialize(nil, r)
	if err != nil || len(out) == 0 {
		t.Fatalf("serialize: %q, %v", out, err)
	}
	back := record.New("id-1", "", 1)
	if err := ser.Deserialize(back, nil, out); err != nil {
		t.Fatalf("deserialize %q: %v", out, err)
	}
	if _, ok := back.Get(record.FieldValue); !ok {
		t.Fatalf("deserialized record has no %s: %v", record.FieldValue, back)
	}
	if c, ok := ser.(component.Closer); ok {
		closeTwice(context.Background(), t, c)
	}
}

// services builds, for each property of spec that names a service, a
// service of the registry that provides it, under the property's Example
// name.
func (lc *lifecycle) services(ctx context.Context, spec *component.Spec, conf component.Config) serviceSet {
	set := serviceSet{}
	for _, p := range spec.Properties {
		if p.ServiceRef == "" {
			continue
		}
		var provider *component.Spec
		for _, s := range lc.reg.Specs() {
			if s.Kind != component.KindService || s.Provides != p.ServiceRef {
				continue
			}
			// providerOf picks among the providers of its service's
			// capability; other properties take any provider.
			if want, ok := providerOf[spec.Name]; ok && s.Name != want && providesRef(lc.reg, want, p.ServiceRef) {
				continue
			}
			provider = s
			break
		}
		if provider == nil {
			lc.t.Fatalf("no service of the registry provides %q", p.ServiceRef)
		}
		// The service's name as the dataflow gives it: the property's
		// value, or its default.
		name, ok := conf.Values()[p.Key]
		if !ok {
			name = p.Default
		}
		svc, err := provider.NewService(ctx, lc.config(provider), lc.env(name, set))
		if err != nil {
			lc.t.Fatalf("build service %s: %v", provider.Name, err)
		}
		set[name] = svc
	}
	return set
}

// providerOf names, for processors that need one particular service among
// several providing the same capability, that service.
var providerOf = map[string]string{
	searchindex.ProcessorName:    searchindex.ServiceName,
	searchindex.EnrichName:       searchindex.ServiceName,
	searchindex.MultiGetName:     searchindex.ServiceName,
	alerting.ComputeTagsName:     redis.ServiceName,
	alerting.CheckThresholdsName: redis.ServiceName,
	alerting.CheckAlertsName:     redis.ServiceName,
}

// providesRef reports whether the service named name provides ref.
func providesRef(reg *component.Registry, name, ref string) bool {
	s, ok := reg.Lookup(name)
	return ok && s.Provides == ref
}

type serviceSet map[string]component.Service

func (s serviceSet) Service(name string) (component.Service, bool) {
	svc, ok := s[name]
	return svc, ok
}

func (s serviceSet) closeAll(ctx context.Context, t *testing.T) {
	for name, svc := range s {
		if err := svc.Close(ctx); err != nil {
			t.Errorf("close service %s: %v", name, err)
		}
	}
}

func closeTwice(ctx context.Context, t *testing.T, c any) {
	t.Helper()
	cl, ok := c.(component.Closer)
	if !ok {
		return
	}
	for i := range 2 {
		if err := cl.Close(ctx); err != nil {
			t.Fatalf("close %d: %v", i+1, err)
		}
	}
}

// sampleBatch is ten real access-log lines, with the fields the examples of
// the processors read.
func sampleBatch(t *testing.T) *component.Batch {
	lines := streamtest.AccessLogLines(t)[:10]
	recs := record.NewBatch(len(lines))
	b := &component.Batch{Topic: "lifecycle", Partition: 0}
	for i, l := range lines {
		r := &recs[i]
		r.Init(fmt.Sprintf("lifecycle-%d", i), "", 1)
		r.SetString(record.FieldValue, l)
		r.SetString("src_ip", "127.0.0.1")
		r.SetString("http_user_agent", "Mozilla/5.0 (X11; Linux x86_64; rv:109.0) Gecko/20100101 Firefox/115.0")
		b.Records = append(b.Records, r)
	}
	return b
}

// noGoroutineLeft waits until the goroutines started since before have
// ended. Goroutines may take a moment to return after Close (a timer's, a
// connection reader's), so the count is polled; what is still running after
// the wait is dumped. Goroutines of the test servers (FerretDB opens a
// database of its own on the first write to it, with a database/sql
// opener; the DNS server serves each query) are theirs, not the
// component's, and are not counted.
func noGoroutineLeft(t *testing.T, before int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		n, dump := componentGoroutines()
		if n <= before {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines left behind (%d before, %d after):\n%s", n-before, before, n, dump)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// testServerFrames mark the goroutines of the test servers.
var testServerFrames = []string{"github.com/FerretDB/", "database/sql.", "/dnstest.", "github.com/miekg/dns."}

// componentGoroutines counts the goroutines that belong to neither a test
// server nor the test itself, and returns their stacks.
func componentGoroutines() (int, string) {
	buf := make([]byte, 4<<20)
	buf = buf[:runtime.Stack(buf, true)]
	n := 0
	var kept []string
	for _, g := range strings.Split(string(buf), "\n\n") {
		server := false
		for _, f := range testServerFrames {
			if strings.Contains(g, f) {
				server = true
				break
			}
		}
		if !server {
			n++
			kept = append(kept, g)
		}
	}
	return n, strings.Join(kept, "\n\n")
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within 30 s")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// counterSum sums a counter over its labels.
func counterSum(t *testing.T, reg *prometheus.Registry, name string) float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatalf("gather metrics: %v", err)
	}
	var sum float64
	for _, mf := range mfs {
		if mf.GetName() == name {
			for _, m := range mf.GetMetric() {
				sum += m.GetCounter().GetValue()
			}
		}
	}
	return sum
}
