package status

import (
	"bytes"
	"embed"
	"encoding/json"
	"html/template"
	"io/fs"
	"log/slog"
	"net/http"
	"time"
)

// The status page at "/": server-rendered HTML with SVG charts, refreshed
// in place by web/page.js, and the same numbers as JSON at
// /api/status/batches. Assets are embedded: no build step.

//go:embed web
var webFS embed.FS

// started is when the process started serving, for the uptime.
var started = time.Now()

var pageTmpl = template.Must(template.New("page.html").Funcs(template.FuncMap{
	"when": func(t time.Time) string {
		if t.IsZero() {
			return "—"
		}
		return t.UTC().Format("2006-01-02 15:04:05 UTC")
	},
	"ago": func(t time.Time) string {
		if t.IsZero() {
			return "never"
		}
		return ago(time.Since(t)) + " ago"
	},
	"num":   func(v float64) string { return short(v) },
	"ms":    func(v float64) string { return short(v) + " ms" },
	"spark": sparkline,
}).ParseFS(webFS, "web/page.html"))

// registerPage adds "/", its assets and /api/status/batches to mux.
func registerPage(mux *http.ServeMux, src PageSource) {
	static, _ := fs.Sub(webFS, "web")
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, _ *http.Request) {
		var buf bytes.Buffer
		if err := pageTmpl.Execute(&buf, buildView(src.Page())); err != nil {
			slog.Error("status page", "error", err)
			http.Error(w, "status page: "+err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write(buf.Bytes())
	})
	mux.HandleFunc("GET /api/status/batches", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		_ = enc.Encode(batchesJSON(src.Page()))
	})
}

// StreamBatches is one stream in /api/status/batches.
type StreamBatches struct {
	Name         string            `json:"name"`
	Generation   int64             `json:"generation"`
	Verdict      Verdict           `json:"verdict"`
	TotalBatches int64             `json:"totalBatches"`
	Totals       Totals            `json:"totals"`
	Lag          []PartitionNow    `json:"lag"`
	Processors   []ProcessorTotals `json:"processors"`
	Batches      []Batch           `json:"batches"`
}

// Totals are the records of the batches kept. Filtered records were
// dropped on purpose by a processor (a filter): neither out nor errors.
type Totals struct {
	In       int64 `json:"in"`
	Out      int64 `json:"out"`
	Errors   int64 `json:"errors"`
	Filtered int64 `json:"filtered"`
	Lag      int64 `json:"lag"`
}

// BatchesDoc is the document at /api/status/batches.
type BatchesDoc struct {
	App             string          `json:"app"`
	BatchIntervalMs float64         `json:"batchIntervalMs"`
	Streams         []StreamBatches `json:"streams"`
}

func batchesJSON(p Page) BatchesDoc {
	doc := BatchesDoc{App: p.App, BatchIntervalMs: float64(p.BatchInterval.Microseconds()) / 1000, Streams: []StreamBatches{}}
	for _, s := range p.Streams {
		lag := CurrentLag(s.Batches)
		if s.Processors == nil {
			s.Processors = []ProcessorTotals{}
		}
		if s.Batches == nil {
			s.Batches = []Batch{}
		}
		doc.Streams = append(doc.Streams, StreamBatches{
			Name: s.Name, Generation: s.Generation, Verdict: Judge(s.Batches, s.StoppedBy),
			TotalBatches: s.TotalBatches, Totals: totals(s.Batches, lag), Lag: lag,
			Processors: s.Processors, Batches: s.Batches,
		})
	}
	return doc
}

func totals(bs []Batch, lag []PartitionNow) Totals {
	var t Totals
	for _, b := range bs {
		t.In += b.In
		t.Out += b.Out
		t.Errors += b.Errors
		t.Filtered += b.Filtered
	}
	for _, p := range lag {
		t.Lag += p.Lag
	}
	return t
}

// view is what page.html renders.
type view struct {
	Page
	Version string
	Uptime  string
	Now     time.Time
	Streams []streamView
	Lagging int
}

type streamView struct {
	StreamPage
	Verdict    Verdict
	Totals     Totals
	Lag        []PartitionNow
	RateIn     float64 // records per second over the last batches
	RateOut    float64
	RateErr    float64
	RateDrop   float64 // dropped on purpose by filters
	LastProcMs float64
	Throughput template.HTML
	Timing     template.HTML
	LagChart   template.HTML
	Processors []processorView
}

type processorView struct {
	ProcessorTotals
	MsPerCall  float64
	Share      float64 // of all processors' time, in percent
	ErrPercent float64
}

func buildView(p Page) view {
	if p.Build.Version == "" {
		p.Build = ReadBuild("", "")
	}
	v := view{Page: p, Version: p.Build.String(), Uptime: ago(time.Since(started)), Now: time.Now()}
	for _, s := range p.Streams {
		sv := streamView{StreamPage: s, Verdict: Judge(s.Batches, s.StoppedBy), Lag: CurrentLag(s.Batches)}
		sv.Totals = totals(s.Batches, sv.Lag)
		if sv.Verdict.State != "keeping-up" {
			v.Lagging++
		}
		xs := make([]time.Time, len(s.Batches))
		in, out, errs, drop := make([]float64, len(s.Batches)), make([]float64, len(s.Batches)), make([]float64, len(s.Batches)), make([]float64, len(s.Batches))
		delay, proc, lag := make([]float64, len(s.Batches)), make([]float64, len(s.Batches)), make([]float64, len(s.Batches))
		for i, b := range s.Batches {
			xs[i] = b.End
			// A batch's rate is its records over the time since the
			// previous batch ended (its own duration for the first).
			dt := time.Duration(b.ProcessingMs * float64(time.Millisecond))
			if i > 0 {
				dt = b.End.Sub(s.Batches[i-1].End)
			}
			secs := max(dt.Seconds(), 1e-3)
			in[i], out[i], errs[i], drop[i] = float64(b.In)/secs, float64(b.Out)/secs, float64(b.Errors)/secs, float64(b.Filtered)/secs
			delay[i], proc[i], lag[i] = b.SchedulingDelayMs, b.ProcessingMs, float64(b.TotalLag())
		}
		if n := len(s.Batches); n > 0 {
			// The rate now: the records of the last ten seconds of batches
			// over that span.
			from := n - 1
			for from > 0 && s.Batches[n-1].End.Sub(s.Batches[from-1].End) < 10*time.Second {
				from--
			}
			var ci, co, ce, cd int64
			for _, b := range s.Batches[from+1:] {
				ci, co, ce, cd = ci+b.In, co+b.Out, ce+b.Errors, cd+b.Filtered
			}
			if span := s.Batches[n-1].End.Sub(s.Batches[from].End).Seconds(); span > 0 {
				sv.RateIn, sv.RateOut, sv.RateErr, sv.RateDrop = float64(ci)/span, float64(co)/span, float64(ce)/span, float64(cd)/span
			}
			sv.LastProcMs = s.Batches[n-1].ProcessingMs
		}
		interval := float64(p.BatchInterval.Microseconds()) / 1000
		sv.Throughput = chart("Records per second", "per batch", xs, []series{{"in", "s-in", in}, {"out", "s-out", out}, {"errors", "s-err", errs}, {"filtered", "s-drop", drop}}, 0, "")
		sv.Timing = chart("Scheduling delay and processing time", "ms per batch", xs, []series{{"processing time", "s-proc", proc}, {"scheduling delay", "s-delay", delay}}, interval, "batch interval")
		sv.LagChart = chart("Consumer lag", "records, partitions read by each batch", xs, []series{{"lag", "s-lag", lag}}, 0, "")
		var all float64
		for _, pt := range s.Processors {
			all += pt.Seconds
		}
		for _, pt := range s.Processors {
			pv := processorView{ProcessorTotals: pt}
			if pt.Calls > 0 {
				pv.MsPerCall = pt.Seconds * 1000 / float64(pt.Calls)
			}
			if all > 0 {
				pv.Share = pt.Seconds / all * 100
			}
			if pt.Records > 0 {
				pv.ErrPercent = float64(pt.Errors) / float64(pt.Records) * 100
			}
			sv.Processors = append(sv.Processors, pv)
		}
		v.Streams = append(v.Streams, sv)
	}
	return v
}
