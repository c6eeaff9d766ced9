package searchindex

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/metrics"
)

// writerMetrics are the service's metrics, labelled with its name.
type writerMetrics struct {
	indexed, refused, retried prometheus.Counter
	queued                    prometheus.Gauge
	latency                   prometheus.Observer
}

func newWriterMetrics(m component.Metrics, labels []string) writerMetrics {
	return writerMetrics{
		indexed: m.CounterVec("searchindex_documents_indexed_total", "Documents the search index accepted.", metrics.ComponentLabels...).WithLabelValues(labels...),
		refused: m.CounterVec("searchindex_documents_refused_total", "Documents refused for good; they become error records.", metrics.ComponentLabels...).WithLabelValues(labels...),
		retried: m.CounterVec("searchindex_documents_retried_total", "Document sends retried after the index refused them for load or a request failed.", metrics.ComponentLabels...).WithLabelValues(labels...),
		queued:  m.GaugeVec("searchindex_queued_documents", "Documents queued for the next bulk requests.", metrics.ComponentLabels...).WithLabelValues(labels...),
		latency: m.HistogramVec("searchindex_bulk_request_seconds", "Duration of one bulk request, answered or not.",
			prometheus.ExponentialBuckets(0.001, 4, 10), metrics.ComponentLabels...).WithLabelValues(labels...),
	}
}
