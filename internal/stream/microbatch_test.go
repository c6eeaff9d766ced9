package stream_test

import (
	"context"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/weir-streams/weir/internal/dataflow"
	"github.com/weir-streams/weir/internal/engine"
	"github.com/weir-streams/weir/internal/status"
	"github.com/weir-streams/weir/internal/stream"
	"github.com/weir-streams/weir/internal/streamtest"
)

// The numbers of issue's run: 4 partitions of 2,500 real access-log lines,
// 500 records a second per partition, 200 ms batches, local[4]. A
// partition's share of a batch is 500 x 0.2 = 100 records.
const (
	mbPartitions = 4
	mbPerPart    = 2500
	mbShare      = 100
)

// produceEvenly writes the 10,000 real lines to topic, line i to partition
// i mod 4: 2,500 lines in each partition.
func produceEvenly(t *testing.T, b *streamtest.Broker, topic string) {
	t.Helper()
	lines := streamtest.AccessLogLines(t)
	if len(lines) != mbPartitions*mbPerPart {
		t.Fatalf("access log has %d lines, want %d", len(lines), mbPartitions*mbPerPart)
	}
	cl, err := kgo.NewClient(kgo.SeedBrokers(b.Addr), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	rs := make([]*kgo.Record, len(lines))
	for i, l := range lines {
		rs[i] = &kgo.Record{Topic: topic, Partition: int32(i % mbPartitions), Value: []byte(l)}
	}
	if err := cl.ProduceSync(ctx, rs...).FirstErr(); err != nil {
		t.Fatalf("produce: %v", err)
	}
}

func microBatchSettings() engine.Settings {
	return engine.Settings{AppName: "weir-test", MaxRate: 500, BatchInterval: 200 * time.Millisecond, Workers: 4}
}

// checkMicroBatches checks the batches a stream recorded over the whole
// input: every batch holds at most a share of each partition, a batch
// holds records of every partition that still had records waiting (all 4
// do until the end), each partition's records come batch after batch with
// no gap and no overlap, so its committed offset advances with every batch
// that reads it, and every record of every partition was in one batch.
func checkMicroBatches(t *testing.T, e *streamtest.Engine) []status.Batch {
	t.Helper()
	var batches []status.Batch
	waitFor(t, 30*time.Second, "the batches of all 10,000 records recorded", func() bool {
		pages := e.Page().Streams
		if len(pages) != 1 {
			return false
		}
		batches = pages[0].Batches
		if pages[0].TotalBatches != int64(len(batches)) {
			t.Fatalf("%d batches, more than the %d the ring keeps: the test cannot see them all", pages[0].TotalBatches, len(batches))
		}
		n := 0
		for _, bt := range batches {
			for _, p := range bt.Partitions {
				n += p.Records
			}
		}
		return n >= mbPartitions*mbPerPart
	})
	next := map[int32]int64{}
	for i, bt := range batches {
		waiting := 0
		for p := range int32(mbPartitions) {
			if next[p] < mbPerPart {
				waiting++
			}
		}
		if waiting == mbPartitions && len(bt.Partitions) != mbPartitions {
			t.Errorf("batch %d reads %d partitions while all %d have records waiting: %+v", i, len(bt.Partitions), mbPartitions, bt.Partitions)
		}
		for _, p := range bt.Partitions {
			if p.Topic != "pipeline_raw" || p.Partition < 0 || p.Partition >= mbPartitions {
				t.Fatalf("batch %d reads %s/%d", i, p.Topic, p.Partition)
			}
			if p.Records > mbShare {
				t.Errorf("batch %d holds %d records of partition %d, more than its share of %d", i, p.Records, p.Partition, mbShare)
			}
			if p.FirstOffset != next[p.Partition] || p.NextOffset != p.FirstOffset+int64(p.Records) || p.Records == 0 {
				t.Errorf("batch %d reads partition %d at [%d, %d) with %d records; the partition's committed offset was %d",
					i, p.Partition, p.FirstOffset, p.NextOffset, p.Records, next[p.Partition])
			}
			next[p.Partition] = p.NextOffset
		}
	}
	for p := range int32(mbPartitions) {
		if next[p] != mbPerPart {
			t.Errorf("partition %d: batches committed up to offset %d, want %d", p, next[p], mbPerPart)
		}
	}
	if min := mbPartitions * mbPerPart / (mbPartitions * mbShare); len(batches) < min {
		t.Errorf("%d batches, want at least %d", len(batches), min)
	}
	return batches
}

// TestMicroBatchesUnderMaxRatePerPartition: the spec's keys as a user sets
// them; batches as Spark's direct stream makes them.
func TestMicroBatchesUnderMaxRatePerPartition(t *testing.T) {
	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "pipeline_raw", mbPartitions)
	produceEvenly(t, b, "pipeline_raw")
	e := streamtest.StartEngine(t, microBatchSettings(), parsingDataflow(b.Addr, false))
	b.WaitGroupCommitted(t, "weir-test", "pipeline_raw", mbPartitions*mbPerPart, 120*time.Second)
	batches := checkMicroBatches(t, e)
	if got := b.Count(t, "pipeline_events") + b.Count(t, "pipeline_errors"); got != mbPartitions*mbPerPart {
		t.Errorf("%d records written, want %d", got, mbPartitions*mbPerPart)
	}
	t.Logf("%d batches", len(batches))
}

// TestMicroBatchesExactlyOnce: the same batches with one transaction each;
// a read_committed reader sees every input once.
func TestMicroBatchesExactlyOnce(t *testing.T) {
	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "pipeline_raw", mbPartitions)
	produceEvenly(t, b, "pipeline_raw")
	df := parsingDataflow(b.Addr, false)
	df.Streams[0].Config = append(df.Streams[0].Config,
		dataflow.Property{Key: stream.KeyGuarantee, Value: stream.ExactlyOnce},
		dataflow.Property{Key: stream.KeyTransactionTimeout, Value: "10000"})
	e := streamtest.StartEngine(t, microBatchSettings(), df)
	b.WaitGroupCommitted(t, "weir-test", "pipeline_raw", mbPartitions*mbPerPart, 120*time.Second)
	batches := checkMicroBatches(t, e)
	events := b.ReadCommitted(t, "pipeline_events", 60*time.Second)
	errs := b.ReadCommitted(t, "pipeline_errors", 60*time.Second)
	if events.Total+errs.Total != mbPartitions*mbPerPart || events.Duplicates() != 0 || errs.Duplicates() != 0 {
		t.Errorf("read_committed: %d events (%d duplicates) and %d errors (%d duplicates), want %d records once each",
			events.Total, events.Duplicates(), errs.Total, errs.Duplicates(), mbPartitions*mbPerPart)
	}
	if got := counterValue(t, e, "weir_stream_transactions_total", "committed"); got < float64(len(batches)) {
		t.Errorf("%v transactions committed for %d batches, want one per batch", got, len(batches))
	}
}

// TestMicroBatchesAcrossPipelineSwap: a pipeline swap in the middle keeps
// the batches whole: batches of both generations, the same bounds, no gap.
func TestMicroBatchesAcrossPipelineSwap(t *testing.T) {
	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "pipeline_raw", mbPartitions)
	produceEvenly(t, b, "pipeline_raw")
	df := parsingDataflow(b.Addr, false)
	e := streamtest.StartEngine(t, microBatchSettings(), df)
	b.WaitCount(t, "pipeline_events", 2000, 60*time.Second)
	swapped := parsingDataflow(b.Addr, false)
	swapped.Streams[0].Pipeline.LastModified = df.Streams[0].Pipeline.LastModified.Add(time.Second)
	swapped.Streams[0].Pipeline.Processors = append(swapped.Streams[0].Pipeline.Processors,
		streamtest.Processor("tag", "pkg.processor.AddFields", "generation", "2"))
	if err := e.Apply(context.Background(), swapped); err != nil {
		t.Fatalf("pipeline swap: %v", err)
	}
	if g := e.Generation("parsing"); g != 2 {
		t.Fatalf("generation after swap = %d, want 2", g)
	}
	if done := b.Count(t, "pipeline_events"); done >= mbPartitions*mbPerPart {
		t.Fatalf("all records were written before the swap: the test proves nothing")
	}
	b.WaitGroupCommitted(t, "weir-test", "pipeline_raw", mbPartitions*mbPerPart, 120*time.Second)
	batches := checkMicroBatches(t, e)
	gens := map[int64]int{}
	for _, bt := range batches {
		gens[bt.Generation]++
	}
	if gens[1] == 0 || gens[2] == 0 {
		t.Errorf("batches by generation %v, want both", gens)
	}
	if got := b.Count(t, "pipeline_events") + b.Count(t, "pipeline_errors"); got != mbPartitions*mbPerPart {
		t.Errorf("%d records written, want %d", got, mbPartitions*mbPerPart)
	}
}

// counterValue returns the value of a counter with the given label value.
func counterValue(t *testing.T, e *streamtest.Engine, name, labelValue string) float64 {
	t.Helper()
	mfs, err := e.Metrics.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var v float64
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetValue() == labelValue {
					v += m.GetCounter().GetValue()
				}
			}
		}
	}
	return v
}
