package stream

import (
	"context"
	"fmt"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/serialize"
)

// RunChunk below is what a stream does to each chunk of records around its
// processor chain: deserialize, run the chain, route and write, await the
// sinks, write the error records. processChunk (poll.go) runs it between
// Kafka's fetch and produce; internal/jobtest runs it with no broker, so
// that `weir test` and `weir run --dry-run` answer as a running stream
// would. A change to how a chunk is handled belongs here, where both see
// it; only where the records go (ChunkWriter) differs.

// SourceInputSerializer names the stage that failed a record whose message
// could not be deserialized (the record's error source field).
const SourceInputSerializer = "input.serializer"

// DecodeInput fills r from a message's key and value with the input
// serializer. When the message does not deserialize, r becomes an error
// record that carries the reason and the message's value untouched, and
// DecodeInput returns false: such a record skips the chain and goes to the
// error topics, so nothing is lost.
func DecodeInput(ser component.Serializer, r *record.Record, key, value []byte) bool {
	if err := ser.Deserialize(r, key, value); err != nil {
		undecodable(r, value, err)
		return false
	}
	return true
}

// undecodable makes r the error record of a message that did not
// deserialize: the reason, and the message's value untouched (copied: the
// record may outlive the fetched batch).
func undecodable(r *record.Record, value []byte, err error) {
	r.AddError(record.ErrDeserializing, err.Error())
	r.Set(record.FieldValue, serialize.RawValue(value))
	r.MarkSource(SourceInputSerializer)
}

// decodeFetched is DecodeInput for a message fetched by the stream's
// client: when the input serializer can take the message's bytes over
// (serialize.OwnedDeserializer), the record refers to them instead of a
// copy. That is safe because the client is built without franz-go's pools
// (kgo.WithPools): every fetched batch is decompressed into, or read from
// the connection into, a buffer of its own that the client never reuses
// or changes. Should the stream ever enable those pools, this must go back
// to DecodeInput. A record holding part of a batch keeps the whole batch
// in memory, which the batch does anyway until its last message is
// committed; a record kept longer (a sink that buffers past the poll)
// keeps it longer.
func decodeFetched(ser component.Serializer, r *record.Record, key, value []byte) bool {
	od, ok := ser.(serialize.OwnedDeserializer)
	if !ok {
		return DecodeInput(ser, r, key, value)
	}
	if err := od.DeserializeOwned(r, key, value); err != nil {
		undecodable(r, value, err)
		return false
	}
	return true
}

// RoutedTopic takes a record's routing field off the record. It returns the
// topic a processor chose (RouteRecords, an expression) and true, or "" and
// false when the record goes to the stream's output topics: the field was
// absent or empty. Whether the chosen topic can be written is the caller's
// question (a stream asks the broker; a test run cannot).
func RoutedTopic(r *record.Record) (string, bool) {
	t, ok := r.GetString(record.FieldOutputTopic)
	if !ok {
		return "", false
	}
	r.Remove(record.FieldOutputTopic)
	return t, t != ""
}

// awaitCompletions waits for what the chain's processors handed to their
// sinks (BulkPut, BulkAddSearchIndex) and returns the records the sinks
// refused, each marked with the processor that awaited it. A chunk's
// offsets may be committed only after this returns without error.
func awaitCompletions(ctx context.Context, b *component.Batch) ([]*record.Record, error) {
	var failed []*record.Record
	for i, c := range b.Completions() {
		more, err := c.Wait(ctx)
		if err != nil {
			return nil, fmt.Errorf("wait for processor %q acknowledgement: %w", b.AwaitedBy(i), err)
		}
		for _, r := range more {
			r.MarkSource(b.AwaitedBy(i))
		}
		failed = append(failed, more...)
	}
	return failed, nil
}

// ChunkWriter is where the records of a chunk go: a stream's producer, or
// the outputs a test run reports. RunChunk calls it.
type ChunkWriter interface {
	// Processed is called once the chain has run, with the records it
	// kept and how many it dropped on purpose, before any is written.
	Processed(kept []*record.Record, dropped int)
	// Output writes a record the chain kept to its topics: the stream's
	// output topics, or the one a processor routed it to (RoutedTopic).
	// A non-empty reason says why it cannot be written there: RunChunk
	// makes it an error record. diverted says it was written to the error
	// topics instead (too large for its topic).
	Output(ctx context.Context, r *record.Record) (reason string, diverted bool, err error)
	// Failed writes the chunk's error records, once, after the sinks'
	// completions were awaited; refused says whether a sink refused any.
	Failed(ctx context.Context, recs []*record.Record, refused bool) error
}

// ChunkResult is what became of a chunk's records.
type ChunkResult struct {
	// Kept are the records the chain kept, in order, including those
	// that could not be written to their topics.
	Kept []*record.Record
	// Failed are the error records, in the order written: messages that
	// did not deserialize, records the chain failed, records that could
	// not be routed, records a sink refused.
	Failed []*record.Record
	// Written and Diverted count the kept records written to their topics
	// and those written to the error topics instead.
	Written, Diverted int
}

// RunChunk takes one chunk of n messages through the steps every stream
// takes, in this order: decode makes the i-th message's record and
// reports false when it is an error record (it did not deserialize; see
// DecodeInput); the chain runs over the records kept in b, whose Records
// it fills; each record the chain kept is written, or becomes an error
// record when it cannot be; the completions of the chain's sinks are
// awaited; the error records are written. processChunk (poll.go) runs a
// fetched chunk through it and internal/jobtest a test's messages, so
// `weir test` sees what the stream does. An error means the chunk must
// not be committed.
func RunChunk(ctx context.Context, chain *Chain, b *component.Batch, n int, decode func(i int) (*record.Record, bool), w ChunkWriter) (ChunkResult, error) {
	var res ChunkResult
	for i := range n {
		r, ok := decode(i)
		if !ok {
			res.Failed = append(res.Failed, r)
			continue
		}
		b.Records = append(b.Records, r)
	}
	chainFailed, dropped, err := chain.run(ctx, b)
	if err != nil {
		return res, err
	}
	res.Kept = b.Records
	res.Failed = append(res.Failed, chainFailed...)
	w.Processed(b.Records, dropped)
	for _, r := range b.Records {
		reason, diverted, err := w.Output(ctx, r)
		switch {
		case err != nil:
			return res, err
		case reason != "":
			// A record routed to a topic that cannot be written becomes
			// an error record naming it (route.go); the stream goes on.
			r.AddError(ErrRouting, reason)
			r.MarkSource("")
			res.Failed = append(res.Failed, r)
		case diverted:
			res.Diverted++
		default:
			res.Written++
		}
	}
	refused, err := awaitCompletions(ctx, b)
	if err != nil {
		return res, err
	}
	res.Failed = append(res.Failed, refused...)
	return res, w.Failed(ctx, res.Failed, len(refused) > 0)
}
