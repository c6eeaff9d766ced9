package stream

import (
	"context"
	"fmt"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/serialize"
)

// The steps below are what a stream does to each chunk of records around
// its processor chain. processChunk (poll.go) runs them between Kafka's
// fetch and produce; internal/jobtest runs the same ones with no broker, so
// that `weir test` and `weir run --dry-run` answer as a running stream would.
// A change to how a chunk is handled belongs here, where both see it.

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

// AwaitCompletions waits for what the chain's processors handed to their
// sinks (BulkPut, BulkAddSearchIndex) and returns the records the sinks
// refused, each marked with the processor that awaited it. A chunk's
// offsets may be committed only after this returns without error.
func AwaitCompletions(ctx context.Context, b *component.Batch) ([]*record.Record, error) {
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
