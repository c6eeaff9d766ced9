// Package remote is the client of the dataflow REST API (docs/remote-api.md):
// it polls GET /dataflows/{name}, asks the engine what change the answer
// makes (the spec's state table is the engine's: Engine.Change), submits
// it through Apply, reports the kind the engine gave, keeps
// the last applied dataflow on disk, and POSTs snapshots of what runs.
//
// What it received is kept apart from what it applied: a dataflow that was
// received and refused is not submitted again until the server sends
// another body, and the conditional-request validators (Last-Modified or
// Last-Updated, ETag) follow what was received, so the server can answer
// 304 to a refused dataflow as to an applied one.
package remote

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"time"

	"github.com/weir-streams/weir/internal/dataflow"
	"github.com/weir-streams/weir/internal/metrics"
)

// Engine is what the client needs of the engine: engine.Engine implements
// it.
type Engine interface {
	// Apply submits a dataflow; see engine.Engine.Apply.
	Apply(ctx context.Context, df *dataflow.DataFlow) error
	// Snapshot returns the running dataflow with sensitive values redacted,
	// nil when nothing runs.
	Snapshot() *dataflow.DataFlow
	// Change returns the kind of change applying df would make now
	// ("start", "dataflow", "pipeline", or "none" when nothing is newer)
	// and its modificationReason; see engine.Engine.Change.
	Change(df *dataflow.DataFlow) (kind, reason string)
}

// Options build a Client.
type Options struct {
	Settings Settings
	Engine   Engine
	Logger   *slog.Logger
	Metrics  *metrics.Registry // nil: no metrics
	// StateDir keeps the last applied dataflow; empty keeps nothing.
	StateDir string
	// ApplyTimeout bounds one Apply; 0 means two minutes. An Apply is not
	// cut short by a stop: a half-applied change is worse than a stop that
	// waits for it.
	ApplyTimeout time.Duration
}

// Result names of polls, used in status and metrics.
const (
	PollApplied     = "applied"      // a change was applied
	PollRefused     = "refused"      // a change was received and refused
	PollUnchanged   = "unchanged"    // 200 with nothing newer, or a body already received
	PollNotModified = "not_modified" // 304
	PollNotFound    = "not_found"    // 404
	PollError       = "error"        // transport error, timeout, unexpected status, unreadable body
)

// Client polls the dataflow API and pushes snapshots. Build it with New and
// run it with Run.
type Client struct {
	set    Settings
	eng    Engine
	log    *slog.Logger
	met    *metrics.Registry
	http   *http.Client
	store  *store
	url    string
	pushCh chan struct{}

	applyTimeout time.Duration

	// Poll state, touched only by the polling goroutine.
	lastModifiedHdr string // Last-Modified or Last-Updated of the last 200, echoed verbatim
	etag            string
	receivedHash    [32]byte
	haveReceived    bool
	gotAnswer       bool // the server answered (any status but an error) since start
	triedDisk       bool
	failures        int
	lastErr         string // last error logged, to log each distinct error once
	notFoundLogged  bool   // a 404 was logged; logged again after another answer

	mu sync.Mutex // guards st and pushReason
	st Status
	// pushReason, when set, replaces the modificationReason of pushed
	// snapshots: the reason the last received change was refused.
	pushReason string
}

// New builds a client. It reads the TLS files, so a wrong path fails here,
// at start, rather than at the first poll.
func New(o Options) (*Client, error) {
	if !o.Settings.Enabled() {
		return nil, errors.New("remote api: no base URL")
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	hc, err := newHTTPClient(o.Settings)
	if err != nil {
		return nil, err
	}
	c := &Client{
		set: o.Settings, eng: o.Engine, met: o.Metrics, http: hc,
		log:          o.Logger.With("component", "remote", "dataflow", o.Settings.Dataflow),
		url:          o.Settings.BaseURL + "/dataflows/" + url.PathEscape(o.Settings.Dataflow),
		pushCh:       make(chan struct{}, 1),
		applyTimeout: o.ApplyTimeout,
	}
	if c.applyTimeout == 0 {
		c.applyTimeout = 2 * time.Minute
	}
	if o.StateDir != "" {
		c.store = &store{dir: o.StateDir, name: o.Settings.Dataflow}
	}
	c.st = Status{BaseURL: o.Settings.BaseURL, Dataflow: o.Settings.Dataflow, PollingRate: o.Settings.PollingRate.Milliseconds(), PushRate: o.Settings.PushRate.Milliseconds()}
	return c, nil
}

// Run polls and pushes until ctx ends, then returns once its goroutines
// have. A request in flight is cancelled at once; an Apply in flight is
// finished first.
func (c *Client) Run(ctx context.Context) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		c.runPusher(ctx)
	}()
	c.log.Info("polling the dataflow API", "url", c.url, "polling_rate", c.set.PollingRate)
	// The first poll waits a random part of one period, so a fleet started
	// together does not poll in lockstep.
	delay := time.Duration(rand.Float64() * 0.1 * float64(c.set.PollingRate))
	for {
		c.setNextPoll(time.Now().Add(delay))
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			wg.Wait()
			return
		case <-t.C:
		}
		delay = c.pollOnce(ctx)
	}
}

// Poll polls once, outside the schedule, and returns the delay the
// schedule would wait before the next poll. Tests use it to step the state
// table.
func (c *Client) Poll(ctx context.Context) time.Duration { return c.pollOnce(ctx) }

// PollDeadline is the time one poll may take in all, from the connection
// to the last byte of the body: remote.api.timeouts.connect for the
// connection, then remote.api.timeouts.socket for the headers and as much
// again for the whole body. The socket timeout alone bounds each wait for
// a byte; a server that trickles a byte just within it would hold a poll,
// and so the polling, for as long as it likes.
func (s Settings) PollDeadline() time.Duration { return s.Connect + 2*s.Socket }

// errPollDeadline is the error of a poll that outlived PollDeadline.
var errPollDeadline = errors.New("the poll took longer than its deadline, remote.api.timeouts.connect + 2 x remote.api.timeouts.socket")

// pollOnce makes one GET, acts on the answer and returns the delay until
// the next poll.
func (c *Client) pollOnce(ctx context.Context) time.Duration {
	// The request and the read of its body run under the poll's deadline;
	// applying what was received does not (apply has its own bound).
	pctx, cancel := context.WithTimeoutCause(ctx, c.set.PollDeadline(), errPollDeadline)
	defer cancel()
	req, err := http.NewRequestWithContext(pctx, http.MethodGet, c.url, nil)
	if err != nil {
		return c.failed(ctx, 0, fmt.Errorf("build request: %w", err), 0)
	}
	req.Header.Set("Accept", "application/json")
	if c.lastModifiedHdr != "" {
		// The exact string the server sent: no date made from our clock, so
		// clock skew and the server's own format cannot lose a change.
		req.Header.Set("If-Modified-Since", c.lastModifiedHdr)
	}
	if c.etag != "" {
		req.Header.Set("If-None-Match", c.etag)
	}
	c.authorize(req)
	resp, err := c.http.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return 0
		}
		return c.failed(ctx, 0, fmt.Errorf("get dataflow: %w", c.deadlineCause(pctx, err)), 0)
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusNotModified:
		c.notFoundLogged = false
		c.answered(resp.StatusCode, PollNotModified)
		return jitter(c.set.PollingRate, 0.1)
	case http.StatusNotFound:
		c.answered(resp.StatusCode, PollNotFound)
		if !c.notFoundLogged {
			c.notFoundLogged = true
			c.log.Warn("the dataflow API does not handle this dataflow (404); nothing changes", "url", c.url)
		}
		return jitter(c.set.PollingRate, 0.1)
	case http.StatusOK:
		body, err := readBody(resp.Body, c.set.Socket)
		if err != nil {
			if ctx.Err() != nil {
				return 0
			}
			return c.failed(ctx, resp.StatusCode, fmt.Errorf("read dataflow body: %w", c.deadlineCause(pctx, err)), 0)
		}
		c.notFoundLogged = false
		c.answered(resp.StatusCode, "")
		// The validators follow what was received, applied or not.
		c.lastModifiedHdr = resp.Header.Get("Last-Modified")
		if c.lastModifiedHdr == "" {
			c.lastModifiedHdr = resp.Header.Get("Last-Updated")
		}
		c.etag = resp.Header.Get("ETag")
		result := c.received(ctx, body)
		c.setPoll(resp.StatusCode, result, "")
		return jitter(c.set.PollingRate, 0.1)
	}
	msg, _ := readBody(struct {
		io.Reader
		io.Closer
	}{io.LimitReader(resp.Body, 512), resp.Body}, c.set.Socket)
	err = fmt.Errorf("get dataflow: unexpected status %s", resp.Status)
	if len(msg) > 0 {
		err = fmt.Errorf("%w: %s", err, printable(msg, 200))
	}
	var wait time.Duration
	if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable {
		wait = retryAfter(resp.Header.Get("Retry-After"), time.Now())
	}
	return c.failed(ctx, resp.StatusCode, err, wait)
}

// deadlineCause returns errPollDeadline with its length when the poll's
// deadline ended the request, else err: "context deadline exceeded" would
// not say which deadline.
func (c *Client) deadlineCause(pctx context.Context, err error) error {
	if cause := context.Cause(pctx); errors.Is(cause, errPollDeadline) {
		return fmt.Errorf("%w (%s)", cause, c.set.PollDeadline())
	}
	return err
}

// received acts on a 200 body and returns the poll result.
func (c *Client) received(ctx context.Context, body []byte) string {
	h := sha256.Sum256(body)
	if c.haveReceived && h == c.receivedHash {
		// Already received: applied or refused, it is not submitted again.
		return PollUnchanged
	}
	c.receivedHash, c.haveReceived = h, true
	df, ignored, err := decode(body)
	if err != nil {
		c.refused(time.Time{}, "validate", err)
		return PollRefused
	}
	if len(ignored) > 0 {
		c.log.Info("LogIsland keys with no Weir equivalent are ignored", "keys", ignored)
	}
	df.Name = c.set.Dataflow
	c.mu.Lock()
	c.st.Received = &Received{Time: time.Now(), LastModified: df.LastModified}
	c.mu.Unlock()
	// What the local job file does not allow is refused before the engine
	// sees the dataflow: nothing of it is opened, read or started.
	if probs := dataflow.CheckRemote(df, c.set.Policy); len(probs) > 0 {
		c.refused(df.LastModified, "validate", fmt.Errorf("not allowed by the job file: %w", probs))
		return PollRefused
	}
	kind, reason := c.eng.Change(df)
	if kind == "none" {
		return PollUnchanged
	}
	if err := c.apply(ctx, kind, reason, df, body); err != nil {
		return PollRefused
	}
	return PollApplied
}

// apply submits df to the engine and records, logs, keeps and pushes the
// outcome.
func (c *Client) apply(ctx context.Context, kind, reason string, df *dataflow.DataFlow, body []byte) error {
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), c.applyTimeout)
	defer cancel()
	err := c.eng.Apply(actx, df)
	if err != nil {
		c.refused(df.LastModified, kind, err)
		return err
	}
	c.count("remote_applies_total", kind, "applied")
	running := time.Time{}
	if cur := c.eng.Snapshot(); cur != nil {
		running = cur.LastModified
	}
	c.mu.Lock()
	c.st.LastApply = &ApplyStatus{Time: time.Now(), Kind: kind, Result: "applied", LastModified: df.LastModified, Running: running, Reason: reason}
	c.pushReason = ""
	c.mu.Unlock()
	c.log.Info("dataflow from the API applied", "change", kind, "last_modified", df.LastModified, "reason", reason)
	if c.store != nil {
		if err := c.store.save(body); err != nil {
			c.log.Warn("could not keep the applied dataflow on disk; a start while the API is down will not find it", "error", err)
		}
	}
	c.pushSoon()
	return nil
}

// refused records a change that was received and not applied, and pushes a
// snapshot at once so the server sees the change did not take.
func (c *Client) refused(lastModified time.Time, kind string, err error) {
	c.count("remote_applies_total", kind, "refused")
	running := time.Time{}
	if cur := c.eng.Snapshot(); cur != nil {
		running = cur.LastModified
	}
	reason := fmt.Sprintf("refused dataflow lastModified %s: %v", formatTime(lastModified), err)
	if lastModified.IsZero() {
		reason = fmt.Sprintf("refused dataflow: %v", err)
	}
	c.mu.Lock()
	c.st.LastApply = &ApplyStatus{Time: time.Now(), Kind: kind, Result: "refused", LastModified: lastModified, Running: running, Reason: err.Error()}
	c.pushReason = reason
	c.mu.Unlock()
	// Logged once, here: the engine returns a refusal without logging it,
	// and the same body is not submitted again.
	c.log.Error("dataflow from the API refused; the running dataflow is unchanged", "change", kind, "error", err)
	c.pushSoon()
}

// answered notes that the server gave an answer, ending a run of failures.
func (c *Client) answered(code int, result string) {
	c.gotAnswer = true
	if c.failures > 0 {
		c.log.Info("dataflow API answers again", "status", code, "after_failures", c.failures)
	}
	c.failures = 0
	c.lastErr = ""
	c.setFailures(0)
	if result != "" {
		c.setPoll(code, result, "")
	}
}

// failed records a failed poll, logs its error if it differs from the last
// one, falls back to the dataflow kept on disk if the API has not answered
// since start, and returns the delay before the next try: the server's
// Retry-After when given (wait > 0), else an exponential backoff.
func (c *Client) failed(ctx context.Context, code int, err error, wait time.Duration) time.Duration {
	c.failures++
	c.setFailures(c.failures)
	if msg := err.Error(); msg != c.lastErr {
		c.lastErr = msg
		c.log.Warn("polling the dataflow API failed; the running dataflow is unchanged", "error", err, "failures", c.failures)
	}
	c.setPoll(code, PollError, err.Error())
	if !c.gotAnswer && !c.triedDisk {
		c.triedDisk = true
		c.startFromDisk(ctx)
	}
	if wait > 0 {
		return wait + time.Duration(rand.Float64()*0.1*float64(wait))
	}
	return backoff(c.set.PollingRate, c.failures)
}

// startFromDisk applies the dataflow kept on disk when it is newer than
// what runs: the API could not be reached at start.
func (c *Client) startFromDisk(ctx context.Context) {
	if c.store == nil {
		return
	}
	body, saved, err := c.store.load()
	if err != nil {
		c.log.Warn("the dataflow API cannot be reached and no dataflow could be read from disk", "error", err)
		return
	}
	if body == nil {
		c.log.Warn("the dataflow API cannot be reached and no dataflow was kept on disk; waiting for the API", "dir", c.store.dir)
		return
	}
	df, ignored, err := decode(body)
	if err != nil {
		c.log.Error("the dataflow kept on disk is unreadable; waiting for the API", "file", c.store.path(), "error", err)
		return
	}
	if len(ignored) > 0 {
		c.log.Info("LogIsland keys with no Weir equivalent are ignored", "keys", ignored)
	}
	df.Name = c.set.Dataflow
	// It came from the API: the job file's bounds hold for it as well,
	// and may have narrowed since it was kept.
	if probs := dataflow.CheckRemote(df, c.set.Policy); len(probs) > 0 {
		c.refused(df.LastModified, "validate", fmt.Errorf("dataflow kept on disk: not allowed by the job file: %w", probs))
		return
	}
	kind, _ := c.eng.Change(df)
	if kind == "none" {
		c.log.Info("the dataflow API cannot be reached; the dataflow kept on disk is not newer than the running one", "file", c.store.path())
		return
	}
	c.log.Warn("the dataflow API cannot be reached; starting the last dataflow applied, kept on disk", "file", c.store.path(), "saved", saved, "last_modified", df.LastModified)
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), c.applyTimeout)
	defer cancel()
	if err := c.eng.Apply(actx, df); err != nil {
		c.refused(df.LastModified, kind, fmt.Errorf("dataflow kept on disk: %w", err))
		return
	}
	c.count("remote_applies_total", kind, "applied")
	c.mu.Lock()
	c.st.FromDisk = true
	c.st.LastApply = &ApplyStatus{Time: time.Now(), Kind: kind, Result: "applied", LastModified: df.LastModified, Running: df.LastModified, Reason: "dataflow kept on disk, applied while the API could not be reached"}
	c.mu.Unlock()
	c.pushSoon()
}

func (c *Client) authorize(req *http.Request) {
	switch {
	case c.set.Token != "":
		req.Header.Set("Authorization", "Bearer "+c.set.Token)
	case c.set.User != "":
		req.SetBasicAuth(c.set.User, c.set.Password)
	}
	req.Header.Set("User-Agent", "weir")
}

func (c *Client) setPoll(code int, result, errText string) {
	c.count("remote_polls_total", result)
	if result == PollApplied || result == PollUnchanged || result == PollNotModified || result == PollRefused || result == PollNotFound {
		c.markAnswer()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.st.LastPoll = &PollStatus{Time: time.Now(), HTTPStatus: code, Result: result, Error: errText}
	c.st.ConsecutiveFailures = c.failures
}

func (c *Client) setNextPoll(t time.Time) {
	c.mu.Lock()
	c.st.NextPoll = t
	c.mu.Unlock()
}

// jitter returns d changed by a random part of at most frac of it, either
// way.
func jitter(d time.Duration, frac float64) time.Duration {
	return time.Duration(float64(d) * (1 + frac*(2*rand.Float64()-1)))
}

// backoff returns the wait after n consecutive failures: the polling period
// doubled for each failure after the first, at most 32 periods or five
// minutes (whichever is less, but never less than one period), with +-25%
// jitter so a fleet that lost its server does not come back in step.
func backoff(period time.Duration, n int) time.Duration {
	limit := min(32*period, 5*time.Minute)
	limit = max(limit, period)
	d := period
	for i := 1; i < n && d < limit; i++ {
		d *= 2
	}
	return jitter(min(d, limit), 0.25)
}

// maxRetryAfter bounds a Retry-After so a wrong header cannot stop polling
// for days.
const maxRetryAfter = time.Hour

// retryAfter parses a Retry-After header (seconds or an HTTP date); 0 when
// absent or unreadable.
func retryAfter(h string, now time.Time) time.Duration {
	if h == "" {
		return 0
	}
	var d time.Duration
	if n, err := strconv.Atoi(h); err == nil {
		d = time.Duration(n) * time.Second
	} else if t, err := http.ParseTime(h); err == nil {
		d = t.Sub(now)
	}
	if d <= 0 {
		return 0
	}
	return min(d, maxRetryAfter)
}

func formatTime(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// printable returns at most n bytes of b as text, for error messages.
func printable(b []byte, n int) string {
	if len(b) > n {
		b = b[:n]
	}
	return strconv.Quote(string(b))
}
