package remote

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/weir-streams/weir/internal/dataflow"
)

// runPusher POSTs a snapshot each time pushSoon asks and every push.rate.
// It runs beside the poller, so a slow or absent server delays only the
// next snapshot, never a poll, an Apply or the records; requests that pile
// up while one is in flight collapse into one.
func (c *Client) runPusher(ctx context.Context) {
	var tick <-chan time.Time
	var timer *time.Timer
	arm := func() {
		if c.set.PushRate <= 0 {
			return
		}
		if timer == nil {
			timer = time.NewTimer(jitter(c.set.PushRate, 0.1))
		} else {
			timer.Reset(jitter(c.set.PushRate, 0.1))
		}
		tick = timer.C
	}
	arm()
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	for {
		select {
		case <-ctx.Done():
			return
		case <-c.pushCh:
		case <-tick:
		}
		c.push(ctx)
		arm()
	}
}

// pushSoon asks the pusher for a snapshot without waiting for it.
func (c *Client) pushSoon() {
	select {
	case c.pushCh <- struct{}{}:
	default:
	}
}

// Snapshot returns the DataFlow Weir pushes: the running dataflow with
// sensitive values redacted, its modificationReason replaced by the reason
// of the last refusal while one stands. With nothing running it has the
// Unix epoch as lastModified, older than any dataflow, and no streams.
func (c *Client) Snapshot() *dataflow.DataFlow {
	df := c.eng.Snapshot()
	if df == nil {
		df = &dataflow.DataFlow{LastModified: time.Unix(0, 0).UTC()}
	}
	c.mu.Lock()
	if c.pushReason != "" {
		df.ModificationReason = c.pushReason
	}
	c.mu.Unlock()
	return df
}

// push POSTs one snapshot. Its answer is read and dropped: the contract says
// the service ignores it.
func (c *Client) push(ctx context.Context) {
	body, err := json.Marshal(c.Snapshot())
	if err != nil {
		c.pushed(0, fmt.Errorf("encode snapshot: %w", err))
		return
	}
	// One push may not outlast the two timeouts: a server that never
	// answers must not stop the periodic pushes.
	pctx, cancel := context.WithTimeout(ctx, c.set.Connect+c.set.Socket)
	defer cancel()
	req, err := http.NewRequestWithContext(pctx, http.MethodPost, c.url+"?jobId="+url.QueryEscape(c.set.Dataflow), bytes.NewReader(body))
	if err != nil {
		c.pushed(0, fmt.Errorf("build push request: %w", err))
		return
	}
	req.Header.Set("Content-Type", "application/json")
	c.authorize(req)
	resp, err := c.http.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return
		}
		c.pushed(0, fmt.Errorf("push snapshot: %w", err))
		return
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		c.pushed(resp.StatusCode, fmt.Errorf("push snapshot: status %s", resp.Status))
		return
	}
	c.pushed(resp.StatusCode, nil)
}

func (c *Client) pushed(code int, err error) {
	result := "ok"
	errText := ""
	if err != nil {
		result, errText = "error", err.Error()
	}
	c.count("remote_pushes_total", result)
	c.mu.Lock()
	prev := c.st.LastPush
	c.st.LastPush = &PushStatus{Time: time.Now(), HTTPStatus: code, Error: errText}
	c.mu.Unlock()
	// Pushes are fire and forget, but an operator should learn that none
	// arrive: each distinct error is logged once.
	if err != nil && (prev == nil || prev.Error != errText) {
		c.log.Warn("pushing the snapshot to the dataflow API failed", "error", err)
	}
}
