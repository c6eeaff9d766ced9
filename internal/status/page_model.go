package status

import "time"

// PageSource is what the status page shows beside /api/status. The engine
// implements it; a Source that does not serves no page (404 at /).
type PageSource interface {
	Page() Page
}

// Page is the engine's state as the status page shows it.
type Page struct {
	App string
	// Build is the running binary's version and commit.
	Build Build
	// DataflowModified is the running dataflow's lastModified (zero before
	// the first start).
	DataflowModified time.Time
	// BatchInterval is engine.streaming.batchDuration: the line a stable
	// stream's processing time stays under.
	BatchInterval time.Duration
	Streams       []StreamPage
	LastApply     Change
	Applies       int64
	// Remote is the REST client's state; nil until a REST client reports
	// it (the page then says so).
	Remote *Remote
	// Config is the running dataflow with sensitive values redacted,
	// encoded as indented JSON.
	Config string
}

// StreamPage is one running stream.
type StreamPage struct {
	Name             string
	PipelineModified time.Time
	Generation       int64
	Processors       []ProcessorTotals // since the running generation was built
	Batches          []Batch           // oldest first, at most BatchesKept
	TotalBatches     int64
	// StoppedBy is the last consumer failure when no batch was committed
	// since, "" otherwise.
	StoppedBy string
}

// Change is the last configuration change applied or refused.
type Change struct {
	Time   time.Time
	Kind   string
	Err    string
	Detail string
}

// Remote is the state of the REST API client (the poller and pusher).
type Remote struct {
	URL      string
	LastPoll time.Time
	PollErr  string
	LastPush time.Time
	PushErr  string
}
