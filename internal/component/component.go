// Package component holds the contracts between Weir's core and its
// components: the Processor, Service and Serializer interfaces, the Batch
// that flows through a processor chain, property descriptors with their
// validators, typed access to a validated configuration, and the Registry
// through which every component is found by its identifier.
//
// Lifecycle contract:
//
//   - A Service is built by its Spec's NewService, which connects or
//     allocates whatever the service needs and returns it ready for use. It
//     is closed with Close after every stream that uses it has stopped, so a
//     service never sees a call after Close. A service may be used by many
//     processors in many streams at once and must be safe for concurrent use.
//
//   - A Processor is built by its Spec's NewProcessor when a processor chain
//     is built: at stream start, or beside a running chain for a pipeline
//     swap. Its Process method is called with whole batches. Calls for
//     different partitions may run concurrently, so Process must be safe for
//     concurrent use; calls for one partition never overlap and come in
//     offset order. A processor that holds resources implements Closer; the
//     chain calls Close once, after the last Process of that chain
//     generation has returned and every Completion it registered has been
//     waited for.
//
//   - A Serializer is built once per stream and is safe for concurrent use.
package component

import (
	"context"
	"log/slog"

	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/status"
)

// Kind is the role of a component.
type Kind string

// The component kinds.
const (
	KindEngine     Kind = "engine"
	KindStream     Kind = "stream"
	KindProcessor  Kind = "processor"
	KindService    Kind = "service"
	KindSerializer Kind = "serializer"
)

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
	Process(ctx context.Context, b *Batch) error
}

// Closer is implemented by components that hold resources.
type Closer interface {
	Close(ctx context.Context) error
}

// Service is a named controller service shared by processors (a cache, a
// database client). Processors look it up by name in Env.Service and assert
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
	Metrics *status.Metrics
	// Services finds a controller service by name. Validation has already
	// checked that names given in properties declared with ServiceRef exist
	// and provide the right capability.
	Services ServiceLookup
}

// ServiceLookup finds a running service by name.
type ServiceLookup interface {
	Service(name string) (Service, bool)
}

// MetricLabels returns the stream and component label values of this
// component, in the order of status.ComponentLabels.
func (e Env) MetricLabels() []string { return []string{e.Stream, e.Name} }
