package jobtest

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sort"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/config"
	"github.com/weir-streams/weir/internal/dataflow"
	"github.com/weir-streams/weir/internal/metrics"
	"github.com/weir-streams/weir/internal/plugins/cache"
	"github.com/weir-streams/weir/internal/plugins/dns"
	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/services"
	"github.com/weir-streams/weir/internal/stream"
)

// Options configure a Harness.
type Options struct {
	Registry *component.Registry
	// Logger receives the components' logs; nil discards them.
	Logger *slog.Logger
	// Canned are the declared answers, by service name.
	Canned map[string]*Canned
	// DryRun replaces the datastore services that have no canned answers
	// by stand-ins that accept every record, and lets IpToFqdn ask real DNS
	// servers: `weir run --dry-run` writes nothing anywhere but may look
	// things up. Without it (`weir test`), a datastore or a reverse-DNS
	// cache without canned answers is an error: a test never reaches the
	// network.
	DryRun bool
}

// Harness runs one stream's processor chain, or a range of it, in process:
// messages in, the records the stream would write out, with no broker.
// Records go through the stream's own chunk driver (stream.RunChunk:
// input serializer, chain, routing, completions), so what a test sees is
// what the job does.
type Harness struct {
	conf   stream.Config
	inSer  component.Serializer
	svcs   *services.Set
	chain  *stream.Chain
	log    *slog.Logger
	offset int64
	canned map[string]*cannedStore
	procs  []string
}

// Output is one record the stream would write.
type Output struct {
	// Dest is DestOutput or DestError.
	Dest string
	// Topics are the topics the record is written to.
	Topics []string
	Record *record.Record
}

// Result is what a run of messages gives.
type Result struct {
	Outputs []Output
	// Dropped are the records the chain dropped on purpose, in input
	// order: neither written nor failed.
	Dropped []*record.Record
	// Topics are the topics the stream may write whatever the records: its
	// output and error topics and the routed topics known in advance. A
	// topic routed by an expression appears in Outputs when written.
	Topics []string
	// Stored counts the records each canned datastore accepted.
	Stored map[string]int64
}

// New builds the services and the chain of one stream of a checked job.
// from and to name the first and last processors of the range to run (""
// for the chain's ends).
func New(ctx context.Context, checked *config.Checked, streamName, from, to string, opts Options) (*Harness, error) {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	sp, err := findStream(checked.Plan, streamName)
	if err != nil {
		return nil, err
	}
	procs, err := processorRange(sp.Pipeline.Processors, from, to)
	if err != nil {
		return nil, err
	}
	conf, err := stream.Decode(sp.Name(), sp.Config)
	if err != nil {
		return nil, fmt.Errorf("stream %q: %w", sp.Name(), err)
	}
	h := &Harness{conf: conf, log: log, canned: map[string]*cannedStore{}}
	for _, p := range procs {
		h.procs = append(h.procs, p.Name())
	}
	if h.inSer, err = newSerializer(opts.Registry, conf.InSer, conf.InSchema); err != nil {
		return nil, fmt.Errorf("stream %q: %s: %w", sp.Name(), stream.KeyInputSerializer, err)
	}
	if err := checkCanned(checked.Plan, procs, opts); err != nil {
		return nil, err
	}
	met := metrics.New(prometheus.NewRegistry())
	h.svcs, err = services.Start(ctx, checked.Plan.Services, services.Options{Logger: log, Metrics: met, Substitute: h.substitute(referenced(procs), opts)})
	if err != nil {
		return nil, err
	}
	deps := stream.ChainDeps{Registry: opts.Registry, Services: h.svcs, Logger: log, Metrics: met}
	if h.chain, err = stream.BuildChain(ctx, conf.Name, 1, procs, deps); err != nil {
		h.svcs.Close(ctx)
		return nil, err
	}
	if err := h.chain.Start(ctx); err != nil {
		h.Close(ctx)
		return nil, err
	}
	return h, nil
}

// Processors returns the names of the processors that run, in order.
func (h *Harness) Processors() []string { return h.procs }

func findStream(plan *dataflow.Plan, name string) (*dataflow.StreamPlan, error) {
	var names []string
	for i := range plan.Streams {
		if plan.Streams[i].Name() == name || name == "" && len(plan.Streams) == 1 {
			return &plan.Streams[i], nil
		}
		names = append(names, plan.Streams[i].Name())
	}
	if name == "" {
		return nil, fmt.Errorf("the job has %d streams (%v): name the one to run", len(names), names)
	}
	msg := fmt.Sprintf("the job has no stream %q (it has %v)", name, names)
	if sug := component.Suggest(name, names); sug != "" {
		msg += fmt.Sprintf("; did you mean %q?", sug)
	}
	return nil, errors.New(msg)
}

func processorRange(all []dataflow.Configured, from, to string) ([]dataflow.Configured, error) {
	var names []string
	for _, p := range all {
		names = append(names, p.Name())
	}
	index := func(key, name string, def int) (int, error) {
		if name == "" {
			return def, nil
		}
		i := slices.Index(names, name)
		if i < 0 {
			msg := fmt.Sprintf("processors.%s: the stream has no processor %q (it has %v)", key, name, names)
			if sug := component.Suggest(name, names); sug != "" {
				msg += fmt.Sprintf("; did you mean %q?", sug)
			}
			return 0, errors.New(msg)
		}
		return i, nil
	}
	i, err := index("from", from, 0)
	if err != nil {
		return nil, err
	}
	j, err := index("to", to, len(all)-1)
	if err != nil {
		return nil, err
	}
	if j < i {
		return nil, fmt.Errorf("processors: %q comes after %q in the chain", from, to)
	}
	if len(all) == 0 {
		return nil, nil
	}
	return all[i : j+1], nil
}

func newSerializer(reg *component.Registry, name, schema string) (component.Serializer, error) {
	return stream.NewSerializer(reg, name, schema)
}

// checkCanned refuses canned answers that name no service, or answers of
// the wrong kind, and, for a test, a chain that would reach the network.
func checkCanned(plan *dataflow.Plan, procs []dataflow.Configured, opts Options) error {
	kinds := map[string]*component.Spec{}
	var names []string
	for _, s := range plan.Services {
		kinds[s.Name()] = s.Spec
		names = append(names, s.Name())
	}
	var errs []error
	canned := make([]string, 0, len(opts.Canned))
	for name := range opts.Canned {
		canned = append(canned, name)
	}
	sort.Strings(canned)
	for _, name := range canned {
		c := opts.Canned[name]
		spec, ok := kinds[name]
		switch {
		case !ok:
			msg := fmt.Sprintf("services.%s (line %d): the job has no service %q (it has %v)", name, c.Line, name, names)
			if sug := component.Suggest(name, names); sug != "" {
				msg += fmt.Sprintf("; did you mean %q?", sug)
			}
			errs = append(errs, errors.New(msg))
		case c.ReverseDNS != nil && spec.Provides != cache.Capability:
			errs = append(errs, fmt.Errorf("services.%s (line %d): reverse_dns answers stand in for a cache service, and %q is a %s", name, c.Line, name, spec.Name))
		case c.Datastore != nil && spec.Provides != component.DatastoreCapability:
			errs = append(errs, fmt.Errorf("services.%s (line %d): datastore answers stand in for a database or search-index service, and %q is a %s", name, c.Line, name, spec.Name))
		}
	}
	if !opts.DryRun {
		for _, p := range procs {
			if p.Spec.Name != dns.IpToFqdnName {
				continue
			}
			pc, err := component.Typed[dns.IpToFqdnConfig](p.Config)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			svc := pc.CacheService
			if c := opts.Canned[svc]; c == nil || c.ReverseDNS == nil {
				errs = append(errs, fmt.Errorf("processor %q resolves addresses with DNS: declare reverse_dns answers for its cache service under services.%s in the test file (a test never asks a real DNS server)", p.Name(), svc))
			}
		}
	}
	return errors.Join(errs...)
}

// substitute puts the test's stand-ins in place of the job's services:
// canned answers where the test file declares them, stand-ins for
// datastores in a dry run; the real service otherwise (caches, geo
// databases: nothing that reaches the network). A datastore that no
// processor of the range writes to gets an inert stand-in, so that a test
// of part of a chain needs no answers for the rest.
func (h *Harness) substitute(used map[string]bool, opts Options) func(dataflow.Configured, component.Env) (component.Service, error) {
	return func(c dataflow.Configured, env component.Env) (component.Service, error) {
		name := c.Name()
		canned := opts.Canned[name]
		switch {
		case canned != nil && canned.ReverseDNS != nil:
			return newCannedCache(canned, env), nil
		case canned != nil && canned.Datastore != nil:
			st := &cannedStore{rules: canned.Datastore.Refuse}
			h.canned[name] = st
			return st, nil
		case c.Spec.Provides == component.DatastoreCapability && opts.DryRun:
			st := &cannedStore{}
			h.canned[name] = st
			return st, nil
		case c.Spec.Provides == component.DatastoreCapability && !used[name]:
			return &cannedStore{}, nil
		case c.Spec.Provides == component.DatastoreCapability:
			return nil, fmt.Errorf("service %q (%s) writes over the network: declare datastore answers for it under services.%s in the test file", name, c.Spec.Name, name)
		}
		return nil, nil
	}
}

// referenced returns the names of the services that the processors name
// in properties declared as service references.
func referenced(procs []dataflow.Configured) map[string]bool {
	out := map[string]bool{}
	for _, p := range procs {
		for _, name := range p.ServiceRefs() {
			out[name] = true
		}
	}
	return out
}

// Run passes messages through the chain as one batch of one partition of
// the stream's first input topic, and returns what the stream would write,
// outputs first then errors, each in input order. The chunk takes the
// stream's own steps (stream.RunChunk); only where its records go differs.
func (h *Harness) Run(ctx context.Context, msgs []Message) (Result, error) {
	topic := ""
	if len(h.conf.Inputs) > 0 {
		topic = h.conf.Inputs[0]
	}
	b := component.Batch{Topic: topic}
	var in []*record.Record // the records the chain is given
	now := time.Now().UnixMilli()
	decode := func(i int) (*record.Record, bool) {
		m := msgs[i]
		r := record.New("", "", now)
		r.Origin = record.Origin{Topic: topic, Offset: h.offset}
		h.offset++
		r.SetID(r.Origin.ID())
		if m.Direct {
			id, typ := r.ID, r.Type
			r.SetFields(slices.Clone(m.Fields))
			r.SetID(id)
			r.SetType(typ)
		} else if !stream.DecodeInput(h.inSer, r, m.Key, m.Value) {
			return r, false
		}
		in = append(in, r)
		return r, true
	}
	w := &testWriter{conf: &h.conf}
	res, err := stream.RunChunk(ctx, h.chain, &b, len(msgs), decode, w)
	if err != nil {
		return Result{}, err
	}
	w.res.Topics = append(append(slices.Clone(h.conf.Outputs), h.conf.Errors...), h.chain.RoutedTopics()...)
	w.res.Dropped = dropped(in, res.Kept, res.Failed)
	w.res.Stored = map[string]int64{}
	for name, st := range h.canned {
		w.res.Stored[name] = st.stored.Load()
	}
	return w.res, nil
}

// testWriter is the stream.ChunkWriter of a test run: it lists the
// records where the stream would write them.
type testWriter struct {
	conf *stream.Config
	res  Result
}

// Processed implements stream.ChunkWriter.
func (w *testWriter) Processed([]*record.Record, int) {}

// Output implements stream.ChunkWriter. A test run has no broker to ask
// whether a routed topic exists: the topic is reported as the stream would
// try it.
func (w *testWriter) Output(_ context.Context, r *record.Record) (string, bool, error) {
	topics := w.conf.Outputs
	if t, routed := stream.RoutedTopic(r); routed {
		topics = []string{t}
	}
	if len(topics) > 0 { // a stream without output topics writes nothing (it ends in a sink)
		w.res.Outputs = append(w.res.Outputs, Output{Dest: DestOutput, Topics: topics, Record: r})
	}
	return "", false, nil
}

// Failed implements stream.ChunkWriter.
func (w *testWriter) Failed(_ context.Context, recs []*record.Record, _ bool) error {
	for _, r := range recs {
		w.res.Outputs = append(w.res.Outputs, Output{Dest: DestError, Topics: w.conf.Errors, Record: r})
	}
	return nil
}

// dropped returns the records of in that the chain neither kept nor
// failed: those a processor dropped on purpose.
func dropped(in, kept, failed []*record.Record) []*record.Record {
	left := make(map[*record.Record]bool, len(kept)+len(failed))
	for _, r := range kept {
		left[r] = true
	}
	for _, r := range failed {
		left[r] = true
	}
	var out []*record.Record
	for _, r := range in {
		if !left[r] {
			out = append(out, r)
		}
	}
	return out
}

// Close closes the chain, then the services.
func (h *Harness) Close(ctx context.Context) {
	h.chain.Close(ctx, h.log)
	h.svcs.Close(ctx)
}
