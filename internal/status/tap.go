package status

import (
	"encoding/json"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// TapSize is how many records the tap keeps per stream and kind (output,
// error): the latest samples, older ones dropped.
const TapSize = 64

// tapEvery is the sampling: a stream offers the tap one record of each
// kind in tapEvery chunks it writes, so that a busy stream pays for a
// JSON encoding now and then, not per record.
const tapEvery = 8

// Tap keeps samples of the records the streams write, for `weir tap`
// (GET /api/tap, when engine.ui.tap is true). Fields whose names say they
// hold a secret are redacted as they are kept. A nil *Tap takes nothing.
type Tap struct {
	mu      sync.Mutex
	samples map[tapKey]*tapRing
	chunks  atomic.Uint64
}

type tapKey struct {
	stream string
	errors bool
}

type tapRing struct {
	recs [TapSize]json.RawMessage
	next int
	n    int
}

// NewTap returns an empty tap.
func NewTap() *Tap { return &Tap{samples: map[tapKey]*tapRing{}} }

// Sample reports whether the stream should offer a record of the chunk it
// is writing; false on a nil tap.
func (t *Tap) Sample() bool {
	return t != nil && t.chunks.Add(1)%tapEvery == 1
}

// Offer keeps the record of stream, in the JSON form the stream writes,
// as an output or an error sample.
func (t *Tap) Offer(stream string, isError bool, recordJSON []byte) {
	if t == nil {
		return
	}
	red := redactRecord(recordJSON)
	t.mu.Lock()
	defer t.mu.Unlock()
	k := tapKey{stream, isError}
	ring := t.samples[k]
	if ring == nil {
		ring = &tapRing{}
		t.samples[k] = ring
	}
	ring.recs[ring.next] = red
	ring.next = (ring.next + 1) % TapSize
	ring.n = min(ring.n+1, TapSize)
}

// Latest returns up to n samples, oldest first, of every stream or the one
// named, output or error records.
func (t *Tap) Latest(stream string, isError bool, n int) []json.RawMessage {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []json.RawMessage
	for k, ring := range t.samples {
		if k.errors != isError || (stream != "" && k.stream != stream) {
			continue
		}
		for i := ring.n; i > 0; i-- {
			out = append(out, ring.recs[(ring.next-i+TapSize)%TapSize])
		}
	}
	if len(out) > n {
		out = out[len(out)-n:]
	}
	return out
}

// secretWords mark the field names whose values the tap redacts.
var secretWords = []string{"password", "passwd", "secret", "token", "authorization", "cookie", "apikey", "api_key", "credential", "private_key"}

// sensitiveField reports whether a field's name says it holds a secret.
func sensitiveField(name string) bool {
	l := strings.ToLower(name)
	for _, w := range secretWords {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// redactRecord replaces the values of sensitive fields of a record in
// JSON form ({"id":..,"fields":{..}}) with Redacted.
func redactRecord(raw []byte) json.RawMessage {
	var rec map[string]json.RawMessage
	if err := json.Unmarshal(raw, &rec); err != nil {
		return json.RawMessage(strconv.Quote(string(raw)))
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(rec["fields"], &fields); err == nil {
		changed := false
		for k := range fields {
			if sensitiveField(k) {
				fields[k] = json.RawMessage(`"` + redacted + `"`)
				changed = true
			}
		}
		if changed {
			rec["fields"], _ = json.Marshal(fields)
		}
	}
	out, err := json.Marshal(rec)
	if err != nil {
		return json.RawMessage(strconv.Quote(string(raw)))
	}
	return out
}

// redacted is what a sensitive field's value becomes in a sample.
const redacted = "******"

// registerTap adds GET /api/tap to mux when a tap is given, served to the
// loopback interface only, as profiles are: samples are the records
// themselves. ?stream=S narrows to a stream, ?errors=true gives error
// records, ?n=N (at most TapSize per stream, 20 by default) bounds them.
func registerTap(mux *http.ServeMux, t *Tap) {
	if t == nil {
		return
	}
	mux.HandleFunc("GET /api/tap", func(w http.ResponseWriter, r *http.Request) {
		host, _, err := net.SplitHostPort(r.RemoteAddr)
		if ip := net.ParseIP(host); err != nil || ip == nil || !ip.IsLoopback() {
			http.Error(w, "the tap is served to 127.0.0.1 only", http.StatusForbidden)
			return
		}
		q := r.URL.Query()
		n := 20
		if s := q.Get("n"); s != "" {
			v, err := strconv.Atoi(s)
			if err != nil || v < 1 {
				http.Error(w, "n: want a positive integer", http.StatusBadRequest)
				return
			}
			n = v
		}
		isErr, _ := strconv.ParseBool(q.Get("errors"))
		recs := t.Latest(q.Get("stream"), isErr, n)
		if recs == nil {
			recs = []json.RawMessage{}
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		_ = json.NewEncoder(w).Encode(map[string]any{"records": recs})
	})
}
