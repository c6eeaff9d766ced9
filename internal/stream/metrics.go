package stream

import (
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/weir-streams/weir/internal/status"
)

// streamMetrics are the metrics of one stream (docs/metrics.md describes
// each).
type streamMetrics struct {
	in, out, errs, filtered   prometheus.Counter
	batch, delay, total       prometheus.Observer
	lag, committed, hwm, age  *prometheus.GaugeVec
	rebalances, produceErrors *prometheus.CounterVec
	generation                prometheus.Gauge
}

func newStreamMetrics(deps ChainDeps, name string) streamMetrics {
	m := deps.Metrics
	buckets := prometheus.ExponentialBuckets(0.001, 2, 16)
	part := []string{"stream", "topic", "partition"}
	return streamMetrics{
		in:            m.CounterVec("stream_records_in_total", "Messages consumed.", "stream").WithLabelValues(name),
		out:           m.CounterVec("stream_records_out_total", "Records written to the output topics.", "stream").WithLabelValues(name),
		errs:          m.CounterVec("stream_records_errors_total", "Records written to the error topics.", "stream").WithLabelValues(name),
		filtered:      m.CounterVec("stream_records_filtered_total", "Records the processors dropped on purpose (a filter): neither written nor errors, and committed.", "stream").WithLabelValues(name),
		batch:         m.HistogramVec("stream_batch_seconds", "Processing time of a micro-batch with records, from the start of processing to the commit.", buckets, "stream").WithLabelValues(name),
		delay:         m.HistogramVec("stream_scheduling_delay_seconds", "Scheduling delay of a micro-batch with records: from when its records were available (its interval ended, or its first record arrived if later) to the start of processing. Idle time is not counted.", buckets, "stream").WithLabelValues(name),
		total:         m.HistogramVec("stream_total_delay_seconds", "Scheduling delay plus processing time of a micro-batch with records.", buckets, "stream").WithLabelValues(name),
		lag:           m.GaugeVec("stream_consumer_lag", "Records behind the high watermark, per assigned partition: end offset minus the processed (else committed) offset, refreshed every second.", part...),
		committed:     m.GaugeVec("stream_committed_offset", "Offset committed by the consumer group, per assigned partition (-1: none).", part...),
		hwm:           m.GaugeVec("stream_high_watermark", "End offset (high watermark) of each assigned partition at the last look (-1: not known yet).", part...),
		age:           m.GaugeVec("stream_oldest_unprocessed_age_seconds", "Age, from its Kafka timestamp, of the oldest polled record not processed yet, per assigned partition: 0 when nothing waits, -1 when records wait unseen.", part...),
		rebalances:    m.CounterVec("stream_rebalances_total", "Partition assignment changes seen by the stream's consumer, by kind (assigned, revoked, lost).", "stream", "kind"),
		produceErrors: m.CounterVec("stream_produce_errors_total", "Writes to output or error topics that Kafka refused after the client's retries, by reason (the Kafka error).", "stream", "reason"),
		generation:    m.GaugeVec("stream_chain_generation", "Generation of the running processor chain.", "stream").WithLabelValues(name),
	}
}

// counted returns a counter's value as /metrics shows it.
func counted(c prometheus.Metric) int64 {
	var m dto.Metric
	if c.Write(&m) != nil {
		return 0
	}
	return int64(m.GetCounter().GetValue())
}

// totals returns the stream's record counters, for /api/status.
func (s *Stream) totals() status.StreamTotals {
	return status.StreamTotals{RecordsIn: counted(s.m.in), RecordsOut: counted(s.m.out), RecordsErrors: counted(s.m.errs),
		RecordsDropped: counted(s.pm.dropped), RecordsFiltered: counted(s.m.filtered)}
}

// processorCounts returns the counters of the running chain's processors,
// in order, for /api/status.
func (s *Stream) processorCounts() []status.ProcessorCounts {
	s.mu.Lock()
	c := s.chain
	s.mu.Unlock()
	out := make([]status.ProcessorCounts, 0, len(c.stages))
	for _, st := range c.stages {
		pc := status.ProcessorCounts{Name: st.name, RecordsIn: counted(st.in), RecordsOut: counted(st.out),
			RecordsErrors: counted(st.errs), RecordsDropped: counted(st.dropped)}
		var m dto.Metric
		if h, ok := st.seconds.(prometheus.Metric); ok && h.Write(&m) == nil {
			pc.BatchSeconds = m.GetHistogram().GetSampleSum()
			pc.Batches = int64(m.GetHistogram().GetSampleCount())
		}
		out = append(out, pc)
	}
	return out
}
