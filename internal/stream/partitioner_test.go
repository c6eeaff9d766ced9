package stream_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/weir-streams/weir/internal/dataflow"
	"github.com/weir-streams/weir/internal/engine"
	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/stream"
	"github.com/weir-streams/weir/internal/streamtest"
)

// partitionerRun runs the sample parser over 3,000 real lines and a few
// bad ones, read from 4 input partitions and written to output and error
// topics of 3 partitions each (so that the modulo matters), with the given
// broker.output.partitioner ("" for the default). It returns the input
// partition of each line's index (the message key streamtest.Produce
// gives) and the output and error messages.
func partitionerRun(t *testing.T, partitioner string) (inPart map[string]int32, out, errs []*kgo.Record) {
	t.Helper()
	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "pipeline_raw", 4)
	b.CreateTopic(t, "pipeline_events", 3)
	b.CreateTopic(t, "pipeline_errors", 3)
	lines := append([]string{}, streamtest.AccessLogLines(t)[:3000]...)
	const bad = 12
	for i := range bad {
		lines[i*250+7] = "garbage that is no log line " + strconv.Itoa(i)
	}
	b.ProduceLines(t, "pipeline_raw", lines)

	var extra []dataflow.Property
	if partitioner != "" {
		extra = streamtest.Props(stream.KeyPartitioner, partitioner)
	}
	s := streamtest.Stream("parsing", b.Addr, "pipeline_raw", "pipeline_events", "pipeline_errors", extra...)
	s.Pipeline.Processors = []dataflow.Component{streamtest.ApacheParser(false)}
	streamtest.StartEngine(t, engine.Settings{}, &dataflow.DataFlow{LastModified: time.Unix(1, 0), Streams: []dataflow.Stream{s}})

	inPart = map[string]int32{}
	for _, m := range b.Consume(t, "pipeline_raw", len(lines), 30*time.Second) {
		inPart[string(m.Key)] = m.Partition
	}
	out = b.Consume(t, "pipeline_events", len(lines)-bad, 60*time.Second)
	errs = b.Consume(t, "pipeline_errors", bad, 30*time.Second)
	return inPart, out, errs
}

// TestOutputPartitionFollowsInput: by default a record is written to the
// partition numbered as its input partition, modulo the topic's partition
// count, and the records of one input partition keep their input order on
// the output partition (the input order is the index order: streamtest
// produces the lines in index order).
func TestOutputPartitionFollowsInput(t *testing.T) {
	inPart, out, errs := partitionerRun(t, "")
	for _, msgs := range [][]*kgo.Record{out, errs} {
		// last[out partition][in partition] is the index of the last
		// record seen from that input partition on that output one.
		last := map[[2]int32]int{}
		used := map[int32]bool{}
		for _, m := range msgs {
			r := streamtest.Decode(t, []*kgo.Record{m})[0]
			key, _ := r.GetString(record.FieldKey)
			idx, err := strconv.Atoi(key)
			if err != nil {
				t.Fatalf("record_key %q of %s is not an index: %v", key, r.ID, err)
			}
			in, ok := inPart[key]
			if !ok {
				t.Fatalf("record_key %q was never produced", key)
			}
			if want := in % 3; m.Partition != want {
				t.Fatalf("%s: line %d of input partition %d is on partition %d, want %d", m.Topic, idx, in, m.Partition, want)
			}
			used[m.Partition] = true
			k := [2]int32{m.Partition, in}
			if prev, seen := last[k]; seen && idx <= prev {
				t.Fatalf("%s partition %d: line %d of input partition %d comes after line %d", m.Topic, m.Partition, idx, in, prev)
			}
			last[k] = idx
		}
		if len(msgs) > 100 && len(used) != 3 {
			t.Errorf("%s: records on partitions %v, want all 3", msgs[0].Topic, used)
		}
	}
}

// TestOutputPartitionByKey: with broker.output.partitioner key, a record's
// partition is the one Kafka's Java client picks for its key (the record
// id): murmur2, as franz-go's StickyKeyPartitioner computes it.
func TestOutputPartitionByKey(t *testing.T) {
	_, out, errs := partitionerRun(t, stream.PartitionKey)
	murmur := kgo.StickyKeyPartitioner(nil).ForTopic("pipeline_events")
	used := map[int32]bool{}
	for _, m := range append(out, errs...) {
		if len(m.Key) != 36 {
			t.Fatalf("%s/%d: key %q is not a record id", m.Topic, m.Offset, m.Key)
		}
		if want := murmur.Partition(&kgo.Record{Key: m.Key}, 3); int(m.Partition) != want {
			t.Fatalf("%s: key %s is on partition %d, want %d", m.Topic, m.Key, m.Partition, want)
		}
		used[m.Partition] = true
	}
	if len(used) != 3 {
		t.Errorf("records on partitions %v, want all 3", used)
	}
}
