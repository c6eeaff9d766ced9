package searchindex

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// client sends `_bulk` requests to one of several hosts. It is safe for
// concurrent use.
type client struct {
	hosts    []string
	next     atomic.Uint32 // index of the host to try first
	http     *http.Client
	username string
	password string
	apiKey   string
	gzip     bool
}

func (c *client) authKind() string {
	switch {
	case c.apiKey != "":
		return "api-key"
	case c.username != "":
		return "basic"
	}
	return "none"
}

// bulkResponse is the part of a `_bulk` response the writer reads: the
// per-item results, in the order of the request's actions. Elasticsearch
// and OpenSearch key each item by its action; Weir sends only "index".
type bulkResponse struct {
	Errors bool       `json:"errors"`
	Items  []bulkItem `json:"items"`
	// Error is set by servers that fail a whole bulk with a 200 answer
	// (ZincSearch); the items it lists are then the ones it handled.
	Error json.RawMessage `json:"error"`
}

type bulkItem struct {
	Index  *itemResult `json:"index"`
	Create *itemResult `json:"create"`
}

func (it bulkItem) result() *itemResult {
	if it.Index != nil {
		return it.Index
	}
	return it.Create
}

type itemResult struct {
	ID     string     `json:"_id"`
	Status int        `json:"status"`
	Error  *itemError `json:"error"`
}

// itemError is the error object of an item. Some servers send a string
// instead of an object; UnmarshalJSON accepts both.
type itemError struct {
	Type   string `json:"type"`
	Reason string `json:"reason"`
}

func (e *itemError) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		return json.Unmarshal(b, &e.Reason)
	}
	type plain itemError
	return json.Unmarshal(b, (*plain)(e))
}

// requestError is a whole bulk request that failed: no answer, or an HTTP
// status that is not 200.
type requestError struct {
	host       string
	status     int           // 0 when no answer came
	retryAfter time.Duration // from a Retry-After header, or 0
	msg        string
	err        error
}

func (e *requestError) Error() string {
	if e.status == 0 {
		return fmt.Sprintf("bulk request to %s: %v", e.host, e.err)
	}
	return fmt.Sprintf("bulk request to %s: HTTP %d: %s", e.host, e.status, e.msg)
}

func (e *requestError) Unwrap() error { return e.err }

// gzipWriters are reused across requests: a gzip.Writer allocates about
// 800 KB of state.
var gzipWriters = sync.Pool{New: func() any {
	w, _ := gzip.NewWriterLevel(io.Discard, gzip.BestSpeed)
	return w
}}

// bulk sends body (the NDJSON actions of a bulk) and decodes the answer.
// A host that cannot be reached, or answers 502, 503 or 504 without
// Retry-After, is left for the next one at once: every host is tried once
// per call. Any other answer is returned as it is.
func (c *client) bulk(ctx context.Context, body []byte) (*bulkResponse, error) {
	payload := body
	if c.gzip {
		var buf bytes.Buffer
		buf.Grow(len(body) / 4)
		zw := gzipWriters.Get().(*gzip.Writer)
		zw.Reset(&buf)
		_, _ = zw.Write(body) // writes to a bytes.Buffer do not fail
		if err := zw.Close(); err != nil {
			gzipWriters.Put(zw)
			return nil, fmt.Errorf("gzip the bulk body: %w", err)
		}
		gzipWriters.Put(zw)
		payload = buf.Bytes()
	}
	first := int(c.next.Load())
	var last error
	for i := range c.hosts {
		h := (first + i) % len(c.hosts)
		res, err := c.send(ctx, c.hosts[h], payload)
		if err == nil {
			return res, nil
		}
		last = err
		var re *requestError
		if ctx.Err() != nil || !errors.As(err, &re) || !re.failover() {
			return nil, err
		}
		// Later requests start from the next host too.
		c.next.CompareAndSwap(uint32(first), uint32((h+1)%len(c.hosts)))
	}
	return nil, last
}

// failover reports whether another host may do better: this one did not
// answer, or said it cannot serve now without asking to wait.
func (e *requestError) failover() bool {
	switch e.status {
	case 0:
		return true
	case http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return e.retryAfter == 0
	}
	return false
}

// maxErrorBody bounds how much of an error answer is read into a message.
const maxErrorBody = 4096

func (c *client) send(ctx context.Context, host string, payload []byte) (*bulkResponse, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, host+"/_bulk", bytes.NewReader(payload))
	if err != nil {
		return nil, fmt.Errorf("bulk request to %s: %w", host, err)
	}
	req.Header.Set("Content-Type", "application/x-ndjson")
	req.Header.Set("Accept", "application/json")
	if c.gzip {
		req.Header.Set("Content-Encoding", "gzip")
	}
	c.authorize(req)
	resp, err := c.http.Do(req)
	if err != nil {
		// The client's error holds the URL, never the credentials, which
		// travel in a header.
		return nil, &requestError{host: host, err: err}
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		_, _ = io.Copy(io.Discard, resp.Body) // let the connection be reused
		return nil, &requestError{host: host, status: resp.StatusCode, retryAfter: retryAfter(resp.Header.Get("Retry-After")), msg: string(msg)}
	}
	var res bulkResponse
	if err := json.NewDecoder(resp.Body).Decode(&res); err != nil {
		return nil, &requestError{host: host, err: fmt.Errorf("read the answer: %w", err)}
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	return &res, nil
}

// maxRetryAfter bounds how long a Retry-After header can hold a bulk back.
const maxRetryAfter = 5 * time.Minute

// retryAfter reads a Retry-After header: seconds, or an HTTP date.
func retryAfter(v string) time.Duration {
	if v == "" {
		return 0
	}
	var d time.Duration
	if n, err := strconv.Atoi(v); err == nil {
		d = time.Duration(n) * time.Second
	} else if t, err := http.ParseTime(v); err == nil {
		d = time.Until(t)
	}
	return min(max(d, 0), maxRetryAfter)
}

// authorize sets the request's credentials: the API key when there is one,
// else the user and password. They travel in a header, never in the URL,
// so the client's errors (which quote the URL) never hold them.
func (c *client) authorize(req *http.Request) {
	switch {
	case c.apiKey != "":
		req.Header.Set("Authorization", "ApiKey "+c.apiKey)
	case c.username != "":
		req.SetBasicAuth(c.username, c.password)
	}
}
