// Package component holds the contracts between Weir's core and its
// components: the Processor, Service and Serializer interfaces, the Batch
// that flows through a processor chain, property descriptors with their
// validators, typed access to a validated configuration, and the Registry
// through which every component is found by its identifier.
//
// Lifecycle contract (the OpenTelemetry Collector's component.Component
// states the same phases):
//
//  1. Validation: the job or REST dataflow is checked once against the
//     Spec (dataflow.Check). It yields, for each component, its Spec and
//     its Config: declared keys with defaults applied. Builders take that
//     result and never validate again.
//  2. Build: the Spec's NewProcessor, NewService or NewSerializer returns
//     the component. Building has no side effects outside the component:
//     it may allocate and parse, but it writes nothing to external systems
//     and leaves no goroutine or connection that Close would not end, so
//     the engine can build a new chain or dataflow beside the running one
//     and drop it with Close if anything else fails.
//  3. Start: a component that implements Starter is started after every
//     component of its chain or dataflow was built; Start may connect,
//     start goroutines and reach external systems. Components without
//     Starter are ready once built.
//  4. Run: a Processor's Process is called with whole batches. Calls for
//     different partitions may run concurrently, so Process must be safe
//     for concurrent use; calls for one partition never overlap and come in
//     offset order. A Service may be used by many processors in many
//     streams at once and must be safe for concurrent use. A Serializer is
//     built once per stream and is safe for concurrent use.
//  5. Close: a component that holds resources implements Closer. Close is
//     called once no call of the component is running: for a processor,
//     after the last Process of its chain generation has returned and every
//     Completion it registered has been waited for; for a service, after
//     every stream that uses it has stopped. Close must be safe to call
//     without Start having been called (a build that failed halfway closes
//     what it built), and a second time; it stops every goroutine the
//     component started before it returns. No other method is called after
//     Close.
package component

import (
	"context"
	"log/slog"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/weir-streams/weir/internal/metrics"
	"github.com/weir-streams/weir/internal/record"
)

// Kind is the role of a component. It is a closed type: the kinds below
// are the only values besides the zero Kind, which means "any kind" where a
// function takes a filter (Registry.Names).
type Kind struct{ name string }

// The component kinds, in documentation order.
var (
	KindEngine     = Kind{"engine"}
	KindStream     = Kind{"stream"}
	KindProcessor  = Kind{"processor"}
	KindService    = Kind{"service"}
	KindSerializer = Kind{"serializer"}
)

// Kinds lists every kind, in documentation order.
var Kinds = []Kind{KindEngine, KindStream, KindProcessor, KindService, KindSerializer}

// String returns the kind's name as the reference writes it.
func (k Kind) String() string { return k.name }

// MarshalText writes the kind's name, so kinds read well in JSON.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.name), nil }

// Processor transforms records. See the package documentation for the
// lifecycle contract.
type Processor interface {
	// Process transforms the batch: it may change records in place, replace
	// b.Records with a different slice (to drop, split or add records), mark
	// records as failed with Record.AddError, and register asynchronous work
	// with b.Await. Records that already carry errors are never passed in.
	//
	// A returned error means the whole batch failed. If ctx is done the
	// batch is abandoned without committing its offsets (it is redelivered);
	// otherwise every record of the batch becomes an error record carrying
	// the error, so nothing is lost.
	//
	// The records belong to the stream: a processor must not keep a
	// pointer to a record (nor to its field slice) once Process has
	// returned and the completions it registered have been waited for,
	// because the stream reuses records for later batches. Values (strings,
	// numbers) may be kept; they are never modified.
	Process(ctx context.Context, b *Batch) error
}

// Closer is implemented by components that hold resources. See the
// package documentation: Close may be called without Start, after a build
// that failed halfway, and twice; it stops the component's goroutines
// before it returns.
type Closer interface {
	Close(ctx context.Context) error
}

// Starter is implemented by components that must reach outside themselves
// before they run (connect, start goroutines). Start is called once, after
// every component of the chain or dataflow was built; an error aborts the
// change, and every component built is then closed, started or not.
type Starter interface {
	Start(ctx context.Context) error
}

// Service is a named controller service shared by processors (a cache, a
// database client). Processors look it up by name with Env.Services and assert
// the interface they need (for example a cache interface), so services and
// processors meet on Go interfaces declared by the service's package.
type Service interface {
	Closer
}

// Serializer turns records into message bytes and back.
type Serializer interface {
	// Serialize appends the message value of r to dst.
	Serialize(dst []byte, r *record.Record) ([]byte, error)
	// Deserialize fills r, which the stream created with its id, origin and
	// creation date, from a message key and value. An error makes the
	// stream emit an error record that keeps the raw bytes.
	Deserialize(r *record.Record, key, value []byte) error
}

// Completion is work a processor started that outlives Process, such as a
// bulk write to a database. The stream waits for every Completion of a batch
// before it commits the batch's offsets, so offsets never move past a record
// whose write was not acknowledged.
type Completion interface {
	// Wait blocks until the work is acknowledged. It returns copies of the
	// records that failed for good, each carrying its error: the stream sends
	// them to the error topics. A non-nil error means the work could not be
	// confirmed (for example ctx was cancelled at shutdown): the batch is not
	// committed and is redelivered.
	Wait(ctx context.Context) (failed []*record.Record, err error)
}

// Batch is the unit of work of a processor chain: the records of one
// partition taken in one micro-batch, in offset order.
type Batch struct {
	// Records are the records still in flight. Processors edit or replace
	// the slice.
	Records []*record.Record
	// Partition identifies where the batch comes from, for logs and metrics.
	Topic     string
	Partition int32

	completions []Completion
	awaitedBy   []string // the processor that registered each completion
	processor   string
}

// Await registers work that must be acknowledged before the batch's offsets
// are committed.
func (b *Batch) Await(c Completion) {
	b.completions = append(b.completions, c)
	b.awaitedBy = append(b.awaitedBy, b.processor)
}

// SetProcessor names the processor about to run, so that the completions it
// registers, and the records they fail, are attributed to it. The processor
// chain calls it; processors do not.
func (b *Batch) SetProcessor(name string) { b.processor = name }

// Completions returns the registered work, for the stream.
func (b *Batch) Completions() []Completion { return b.completions }

// AwaitedBy returns the name of the processor that registered completion i.
func (b *Batch) AwaitedBy(i int) string { return b.awaitedBy[i] }

// Env is what a component is given when it is built.
type Env struct {
	// Name is the component's name in the job: the processor, service or
	// stream name.
	Name string
	// Stream is the stream a processor belongs to; empty for services.
	Stream string
	// Logger carries the stream and component names.
	Logger *slog.Logger
	// Metrics creates metrics once per registry; components label them with
	// MetricLabels.
	Metrics Metrics
	// Services finds a controller service by name. Validation has already
	// checked that names given in properties declared with ServiceRef exist
	// and provide the right capability.
	Services ServiceLookup
}

// Log returns the component's logger: Logger, or slog.Default() for a
// component built outside an engine (weir grok, a test).
func (e Env) Log() *slog.Logger {
	if e.Logger == nil {
		return slog.Default()
	}
	return e.Logger
}

// Meters returns the registry the component reports to: Metrics, or a
// registry of its own for a component built outside an engine (weir grok,
// a test), so that no constructor has to check.
func (e Env) Meters() Metrics {
	if e.Metrics == nil {
		return metrics.New(prometheus.NewRegistry())
	}
	return e.Metrics
}

// Metrics creates the metric vectors a component reports to, once per name
// and registry: components are rebuilt on every pipeline swap, and two
// instances of a component ask for the same vectors. Names are prefixed
// with weir_; components label per-component vectors with
// metrics.ComponentLabels and Env.MetricLabels. Package metrics implements
// it.
type Metrics interface {
	CounterVec(name, help string, labels ...string) *prometheus.CounterVec
	GaugeVec(name, help string, labels ...string) *prometheus.GaugeVec
	HistogramVec(name, help string, buckets []float64, labels ...string) *prometheus.HistogramVec
}

// ServiceLookup finds a running service by name.
type ServiceLookup interface {
	Service(name string) (Service, bool)
}

// MetricLabels returns the stream and component label values of this
// component, in the order of metrics.ComponentLabels.
func (e Env) MetricLabels() []string { return []string{e.Stream, e.Name} }
