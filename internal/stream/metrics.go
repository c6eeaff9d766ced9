package stream

import (
	"github.com/prometheus/client_golang/prometheus"
)

// streamMetrics are the metrics of one stream.
type streamMetrics struct {
	in, out, errs prometheus.Counter
	batch, delay  prometheus.Observer
	lag           *prometheus.GaugeVec
	generation    prometheus.Gauge
}

func newStreamMetrics(deps ChainDeps, name string) streamMetrics {
	m := deps.Metrics
	return streamMetrics{
		in:         m.CounterVec("stream_records_in_total", "Messages consumed.", "stream").WithLabelValues(name),
		out:        m.CounterVec("stream_records_out_total", "Records written to the output topics.", "stream").WithLabelValues(name),
		errs:       m.CounterVec("stream_records_errors_total", "Records written to the error topics.", "stream").WithLabelValues(name),
		batch:      m.HistogramVec("stream_batch_seconds", "Processing time of a micro-batch, from poll to commit.", prometheus.ExponentialBuckets(0.001, 2, 16), "stream").WithLabelValues(name),
		delay:      m.HistogramVec("stream_scheduling_delay_seconds", "How late a micro-batch started after its interval.", prometheus.ExponentialBuckets(0.001, 2, 16), "stream").WithLabelValues(name),
		lag:        m.GaugeVec("stream_consumer_lag", "Records behind the high watermark, per partition, at the last batch.", "stream", "topic", "partition"),
		generation: m.GaugeVec("stream_chain_generation", "Generation of the running processor chain.", "stream").WithLabelValues(name),
	}
}
