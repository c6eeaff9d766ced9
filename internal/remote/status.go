package remote

import (
	"encoding/json"
	"time"

	"github.com/weir-streams/weir/internal/status"
)

// Status is the client's part of /api/status, under the key "remote".
type Status struct {
	BaseURL     string `json:"baseUrl"`
	Dataflow    string `json:"dataflow"`
	PollingRate int64  `json:"pollingRateMs"`
	PushRate    int64  `json:"pushRateMs"`
	// LastPoll is the last poll's time, HTTP status (0 when none came),
	// result (applied, refused, unchanged, not_modified, not_found, error)
	// and error.
	LastPoll *PollStatus `json:"lastPoll,omitempty"`
	// Received is the lastModified of the last dataflow received and
	// decoded, applied or not.
	Received *Received `json:"received,omitempty"`
	// LastApply is the last change submitted to the engine.
	LastApply           *ApplyStatus `json:"lastApply,omitempty"`
	LastPush            *PushStatus  `json:"lastPush,omitempty"`
	ConsecutiveFailures int          `json:"consecutiveFailures"`
	NextPoll            time.Time    `json:"nextPoll"`
	// FromDisk says the running dataflow came from the copy kept on disk,
	// because the API could not be reached at start.
	FromDisk bool `json:"startedFromDisk"`
}

// PollStatus describes one poll.
type PollStatus struct {
	Time       time.Time `json:"time"`
	HTTPStatus int       `json:"httpStatus,omitempty"`
	Result     string    `json:"result"`
	Error      string    `json:"error,omitempty"`
}

// Received describes the last dataflow received.
type Received struct {
	Time         time.Time `json:"time"`
	LastModified time.Time `json:"lastModified"`
}

// ApplyStatus describes the last change submitted.
type ApplyStatus struct {
	Time time.Time `json:"time"`
	// Kind is start, dataflow, pipeline, or validate (refused before it
	// reached the engine: not JSON, or not a DataFlow).
	Kind   string `json:"kind"`
	Result string `json:"result"` // applied or refused
	// Reason is the error of a refusal, or the modificationReason of an
	// applied dataflow.
	Reason string `json:"reason,omitempty"`
	// LastModified is the submitted dataflow's; Running the running one's
	// after the change.
	LastModified time.Time `json:"lastModified"`
	Running      time.Time `json:"runningLastModified"`
}

// PushStatus describes the last snapshot push.
type PushStatus struct {
	Time       time.Time `json:"time"`
	HTTPStatus int       `json:"httpStatus,omitempty"`
	Error      string    `json:"error,omitempty"`
}

// Status returns a copy of the client's state.
func (c *Client) Status() Status {
	c.mu.Lock()
	defer c.mu.Unlock()
	st := c.st
	return st
}

// WithStatus returns a status source that serves src's status with the
// client's added under "remote". src's status must encode as a JSON object.
func WithStatus(src status.Source, c *Client) status.Source {
	return statusSource{src, c}
}

type statusSource struct {
	status.Source
	c *Client
}

// Status merges the two through JSON, so the engine's status keeps its own
// shape whatever it is.
func (s statusSource) Status() any {
	out := map[string]json.RawMessage{}
	if b, err := json.Marshal(s.Source.Status()); err == nil {
		_ = json.Unmarshal(b, &out)
	}
	if b, err := json.Marshal(s.c.Status()); err == nil {
		out["remote"] = b
	}
	return out
}

// NotReadyReason forwards the source's reason for /readyz.
func (s statusSource) NotReadyReason() string {
	if r, ok := s.Source.(interface{ NotReadyReason() string }); ok {
		return r.NotReadyReason()
	}
	return ""
}

// Page is the source's status page with the client's state in its Remote
// slot. A source without a page gives an empty one.
func (s statusSource) Page() status.Page {
	var p status.Page
	if ps, ok := s.Source.(status.PageSource); ok {
		p = ps.Page()
	}
	st := s.c.Status()
	r := &status.Remote{URL: st.BaseURL}
	if st.LastPoll != nil {
		r.LastPoll, r.PollErr = st.LastPoll.Time, st.LastPoll.Error
	}
	if st.LastPush != nil {
		r.LastPush, r.PushErr = st.LastPush.Time, st.LastPush.Error
	}
	p.Remote = r
	return p
}
