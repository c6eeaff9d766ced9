package status

import "time"

// SchemaVersion is the version of the /api/status document
// (docs/status.schema.json). Fields are only added within a version; a
// rename or a removal raises it.
const SchemaVersion = 1

// API is the /api/status document. Field names and meanings are those of
// docs/status.schema.json, which a test checks the served document against.
type API struct {
	SchemaVersion  int      `json:"schemaVersion"`
	App            string   `json:"app"`
	Build          Build    `json:"build"`
	Ready          bool     `json:"ready"`
	NotReadyReason string   `json:"notReadyReason"`
	Settings       Settings `json:"settings"`
	LastApply      Apply    `json:"lastApply"`
	Applies        int64    `json:"applies"`
	EmbeddedBroker string   `json:"embeddedBroker"`
	// Dataflow is the running dataflow, redacted; nil before the first
	// start.
	Dataflow any      `json:"dataflow"`
	Streams  []Stream `json:"streams"`
}

// Build says which binary runs.
type Build struct {
	Version string `json:"version"`
	Commit  string `json:"commit"`
}

// Settings are the engine keys as the job file gives them.
type Settings struct {
	BatchDurationMs     int64 `json:"batchDurationMs"`
	Workers             int   `json:"workers"`
	MaxRatePerPartition int64 `json:"maxRatePerPartition"`
	TimeoutMs           int64 `json:"timeoutMs"` // -1: runs until stopped
	DriverMemoryBytes   int64 `json:"driverMemoryBytes"`
	UIPort              int   `json:"uiPort"`
}

// Apply is the last configuration change submitted.
type Apply struct {
	Time   *time.Time `json:"time"`
	Kind   string     `json:"kind"`
	Error  string     `json:"error"`
	Detail string     `json:"detail"`
}

// Stream is one stream's state.
type Stream struct {
	Name        string   `json:"name"`
	State       string   `json:"state"`
	Reason      string   `json:"reason"`
	Generation  int64    `json:"generation"`
	InputTopics []string `json:"inputTopics"`
	// InputPattern is the pattern of the topics consumed, for a stream
	// that subscribes by pattern (InputTopics is then empty).
	InputPattern    string        `json:"inputPattern,omitempty"`
	BatchIntervalMs int64         `json:"batchIntervalMs"`
	LastBatch       *BatchSummary `json:"lastBatch"`
	Stalled         bool          `json:"stalled"`
	Partitions      []Partition   `json:"partitions"`
	LastErrors      []Error       `json:"lastErrors"`
	// Totals and Processors are the stream's counters as /metrics has
	// them, since the process started. Processors is never nil.
	Totals     StreamTotals      `json:"totals"`
	Processors []ProcessorCounts `json:"processors"`
}

// StreamTotals are a stream's record counters since the process started:
// weir_stream_records_{in,out,errors,dropped,filtered}_total.
type StreamTotals struct {
	RecordsIn       int64 `json:"recordsIn"`
	RecordsOut      int64 `json:"recordsOut"`
	RecordsErrors   int64 `json:"recordsErrors"`
	RecordsDropped  int64 `json:"recordsDropped"`
	RecordsFiltered int64 `json:"recordsFiltered"`
}

// ProcessorCounts are the counters of one processor of the running chain
// since the process started: weir_processor_records_{in,out,errors,
// dropped}_total, and the sum (seconds) and count (batches) of
// weir_processor_batch_seconds.
type ProcessorCounts struct {
	Name           string  `json:"name"`
	RecordsIn      int64   `json:"recordsIn"`
	RecordsOut     int64   `json:"recordsOut"`
	RecordsErrors  int64   `json:"recordsErrors"`
	RecordsDropped int64   `json:"recordsDropped"`
	BatchSeconds   float64 `json:"batchSeconds"`
	Batches        int64   `json:"batches"`
}

// BatchSummary is the last completed batch of a stream, in /api/status.
type BatchSummary struct {
	End               time.Time `json:"end"`
	Records           int       `json:"records"`
	SchedulingDelayMs float64   `json:"schedulingDelayMs"`
	ProcessingMs      float64   `json:"processingMs"`
	TotalDelayMs      float64   `json:"totalDelayMs"`
}

// Partition is one assigned partition of a stream.
type Partition struct {
	Topic                  string  `json:"topic"`
	Partition              int32   `json:"partition"`
	CommittedOffset        int64   `json:"committedOffset"`
	ProcessedOffset        int64   `json:"processedOffset"`
	HighWatermark          int64   `json:"highWatermark"`
	Lag                    int64   `json:"lag"`
	OldestUnprocessedAgeMs float64 `json:"oldestUnprocessedAgeMs"`
}

// Error is one recent error of a stream.
type Error struct {
	Time    time.Time `json:"time"`
	Message string    `json:"message"`
}
