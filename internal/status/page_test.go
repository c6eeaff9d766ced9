package status_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/weir-streams/weir/internal/dataflow"
	"github.com/weir-streams/weir/internal/engine"
	"github.com/weir-streams/weir/internal/status"
	"github.com/weir-streams/weir/internal/streamtest"
)

// chromium finds Debian's chromium; scripts/test installs it. With CI set
// a missing browser fails the test instead of skipping it.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("chromium is not installed; scripts/test installs it")
	}
	t.Skip("chromium is not installed (scripts/test installs it; CI fails here)")
	return ""
}

// browser starts headless Chromium with fixed flags and a fresh
// profile; it is closed when the test ends.
func browser(t *testing.T) context.Context {
	t.Helper()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromium(t)),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 800),
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelB := chromedp.NewContext(actx)
	t.Cleanup(func() { cancelB(); cancelA() })
	// The first run starts the browser; it must not carry a timeout.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	return ctx
}

// do runs actions in the tab, bounded by timeout.
func browse(t *testing.T, ctx context.Context, timeout time.Duration, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if err := chromedp.Do(c, steps...); err != nil {
		t.Fatal(err)
	}
}

// value runs one action that returns a value.
func value[T any](t *testing.T, ctx context.Context, a chromedp.Action[T]) T {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	v, err := chromedp.Run(c, a)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func startStatus(t *testing.T, e *streamtest.Engine) string {
	t.Helper()
	srv, err := status.Start("127.0.0.1:0", e.Metrics, e.Engine)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	})
	return "http://" + srv.Addr()
}

func batchesDoc(t *testing.T, base string) status.BatchesDoc {
	t.Helper()
	code, body := get(t, base+"/api/status/batches")
	if code != 200 {
		t.Fatalf("/api/status/batches = %d: %s", code, body)
	}
	var doc status.BatchesDoc
	if err := json.Unmarshal([]byte(body), &doc); err != nil {
		t.Fatalf("decode /api/status/batches: %v", err)
	}
	return doc
}

func accessJob(b *streamtest.Broker, modified time.Time, enrich bool) *dataflow.DataFlow {
	s := streamtest.Stream("access", b.Addr, "raw", "parsed", "failed")
	s.Pipeline = dataflow.Pipeline{LastModified: modified, Processors: []dataflow.Component{streamtest.ApacheParser(enrich)}}
	return &dataflow.DataFlow{LastModified: time.Unix(100, 0), Streams: []dataflow.Stream{s}}
}

// TestPageInChromium runs a job on the embedded broker, loads real log
// lines, opens the page in headless Chromium and checks that the DOM, after
// the page's script refreshed it, shows what /api/status and
// /api/status/batches say; then swaps the pipeline and waits, in the same
// tab, for the page to show the new generation.
func TestPageInChromium(t *testing.T) {
	ctx := browser(t)
	b := streamtest.StartBroker(t)
	e := streamtest.StartEngine(t, engine.Settings{}, accessJob(b, time.Unix(100, 0), false))
	base := startStatus(t, e)

	// Real lines, and two that are not access-log lines: every line ends
	// up in parsed or failed.
	lines := append(streamtest.AccessLogLines(t)[:600], "not an access log line", "")
	b.ProduceLines(t, "raw", lines)
	deadline := time.Now().Add(60 * time.Second)
	var doc status.BatchesDoc
	for {
		doc = batchesDoc(t, base)
		if len(doc.Streams) == 1 && doc.Streams[0].Totals.In == int64(len(lines)) && doc.Streams[0].Totals.Out+doc.Streams[0].Totals.Errors == int64(len(lines)) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the ring never counted %d records: %+v", len(lines), doc.Streams)
		}
		time.Sleep(100 * time.Millisecond)
	}
	want := doc.Streams[0]
	// Records came through: the stream joined its group.
	if code, body := get(t, base+"/readyz"); code != 200 {
		t.Errorf("/readyz with the stream consuming = %d: %s", code, body)
	}

	// The script ran: it marks each refresh it swapped in.
	browse(t, ctx, 60*time.Second, chromedp.Navigate(base+"/"), chromedp.WaitVisible(`main[data-refreshes]`))
	field := func(name string) string {
		return value(t, ctx, chromedp.TextContent(`[data-stream="access"] [data-field="`+name+`"]`))
	}
	refreshes := value(t, ctx, chromedp.AttributeValue(`main`, "data-refreshes")).Value
	streams := value(t, ctx, chromedp.AttributeValue(`main`, "data-streams")).Value
	inTotal, outTotal, errTotal := field("in-total"), field("out-total"), field("errors-total")
	lag, verdict, gen := field("lag"), field("verdict"), field("generation")
	config := value(t, ctx, chromedp.TextContent(`[data-field="config"]`))
	if refreshes == "" {
		t.Fatal("the page's script did not refresh the page")
	}
	// Streams listed: those of the dataflow in /api/status.
	var st struct {
		Dataflow dataflow.DataFlow `json:"dataflow"`
	}
	_, body := get(t, base+"/api/status")
	if err := json.Unmarshal([]byte(body), &st); err != nil {
		t.Fatal(err)
	}
	if streams != strconv.Itoa(len(st.Dataflow.Streams)) || st.Dataflow.Streams[0].Name != "access" {
		t.Errorf("page lists %s streams, /api/status has %d (%v)", streams, len(st.Dataflow.Streams), st.Dataflow.Streams)
	}
	for _, c := range []struct {
		what, got string
		want      int64
	}{
		{"records in", inTotal, want.Totals.In}, {"records out", outTotal, want.Totals.Out},
		{"errors", errTotal, want.Totals.Errors}, {"lag", lag, want.Totals.Lag}, {"generation", gen, want.Generation},
	} {
		if c.got != strconv.FormatInt(c.want, 10) {
			t.Errorf("page shows %s %q, /api/status/batches says %d", c.what, c.got, c.want)
		}
	}
	if want.Totals.In != int64(len(lines)) || want.Totals.Errors != 2 {
		t.Errorf("ring totals %+v, want %d in and 2 refused lines", want.Totals, len(lines))
	}
	if verdict != want.Verdict.Text || verdict != "keeping up" {
		t.Errorf("page verdict %q, /api/status/batches %q, want keeping up", verdict, want.Verdict.Text)
	}
	if !strings.Contains(config, `"name": "access"`) {
		t.Errorf("running configuration not shown: %q", config)
	}

	// A pipeline swap: the page, refreshing itself, shows generation 2.
	apply, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := e.Apply(apply, accessJob(b, time.Unix(200, 0), true)); err != nil {
		t.Fatal(err)
	}
	b.ProduceLines(t, "raw", lines[:50])
	swapped := value(t, ctx, chromedp.Poll[bool](`document.querySelector('[data-stream="access"] [data-field="generation"]').textContent === "2" && document.querySelector('[data-field="last-change"]').textContent.includes("pipeline")`, chromedp.WithPollingTimeout(25*time.Second)))
	if !swapped {
		t.Error("the page never showed generation 2 after the swap")
	}
	if g := e.Generation("access"); g != 2 {
		t.Errorf("engine generation %d after the swap, want 2", g)
	}
	// The swap re-used the metrics: one series per stream and processor,
	// the generation moved on.
	_, metrics := get(t, base+"/metrics")
	for _, want := range []string{`weir_stream_chain_generation{stream="access"} 2`, `weir_processor_records_in_total{component="apache_parser",stream="access"}`} {
		if strings.Count(metrics, want) != 1 {
			t.Errorf("/metrics has %d lines %s", strings.Count(metrics, want), want)
		}
	}
	shot := filepath.Join(t.TempDir(), "status.png")
	png := value(t, ctx, chromedp.FullScreenshot(100))
	if err := os.WriteFile(shot, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s (%d bytes)", shot, len(png))
}

// TestVerdictFallingBehind holds a stream back with maxRatePerPartition
// while records keep arriving faster: the verdict must say it falls behind,
// in the JSON and in the server-rendered page.
func TestVerdictFallingBehind(t *testing.T) {
	b := streamtest.StartBroker(t)
	set := engine.Settings{MaxRate: 400, BatchInterval: 100 * time.Millisecond}
	e := streamtest.StartEngine(t, set, accessJob(b, time.Unix(100, 0), false))
	base := startStatus(t, e)

	lines := streamtest.AccessLogLines(t)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // keeps records arriving at about 2,000 a second, 5 times the rate
		defer wg.Done()
		for i := 0; ; i = (i + 200) % (len(lines) - 200) {
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Millisecond):
			}
			b.ProduceLines(t, "raw", lines[i:i+200])
		}
	}()
	t.Cleanup(func() { close(stop); wg.Wait() })

	deadline := time.Now().Add(90 * time.Second)
	for {
		doc := batchesDoc(t, base)
		if len(doc.Streams) == 1 && doc.Streams[0].Verdict.State == "falling-behind" {
			v := doc.Streams[0].Verdict
			if !strings.HasPrefix(v.Text, fmt.Sprintf("falling behind: lag grew %d records in the last", v.LagGrowth)) || v.LagGrowth <= 0 {
				t.Errorf("verdict text %q, growth %d", v.Text, v.LagGrowth)
			}
			_, page := get(t, base+"/")
			if !strings.Contains(page, `class="verdict v-falling-behind" data-field="verdict">falling behind: lag grew`) {
				t.Errorf("the page does not say falling behind:\n%s", page)
			}
			lagging := false
			for _, p := range doc.Streams[0].Lag {
				lagging = lagging || p.Lagging
			}
			if !lagging || !strings.Contains(page, `<span class="tag">lagging</span>`) {
				t.Errorf("no partition marked lagging: %+v", doc.Streams[0].Lag)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the verdict never said falling behind: %+v", doc.Streams)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// TestScreenshots takes the README's screenshots of the page under load,
// light and dark, at 1280x800 and at phone width, and checks that each is a
// PNG of the viewport's width. With WEIR_SCREENSHOTS=<dir> (docs/ when
// regenerating them) it writes them there after 30 s of load; without it,
// into a temporary directory after 5 s, so every run exercises the path.
func TestScreenshots(t *testing.T) {
	dir, rounds := os.Getenv("WEIR_SCREENSHOTS"), 60
	if dir == "" {
		dir, rounds = t.TempDir(), 10
	}
	ctx := browser(t)
	b := streamtest.StartBroker(t)
	df := accessJob(b, time.Now().Add(-3*time.Hour).Truncate(time.Second), true)
	df.LastModified = df.Streams[0].Pipeline.LastModified
	e := streamtest.StartEngine(t, engine.Settings{AppName: "access-logs", BatchInterval: 200 * time.Millisecond}, df)
	base := startStatus(t, e)
	lines := streamtest.AccessLogLines(t)
	for i := 0; i < rounds; i++ { // half a second each, varying load
		n := 100 + (i%10)*60
		b.ProduceLines(t, "raw", lines[i*150%9000:i*150%9000+n])
		time.Sleep(500 * time.Millisecond)
	}
	for _, shot := range []struct {
		name   string
		w, h   int64
		mobile bool
		dark   bool
	}{{"status-light.png", 1280, 800, false, false}, {"status-dark.png", 1280, 800, false, true}, {"status-phone.png", 390, 844, true, false}} {
		scheme := "light"
		if shot.dark {
			scheme = "dark"
		}
		var opts []chromedp.EmulateViewportOption
		if shot.mobile {
			opts = append(opts, chromedp.EmulateMobile)
		}
		browse(t, ctx, 30*time.Second,
			chromedp.EmulateViewport(shot.w, shot.h, opts...),
			chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
				_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
				return err
			}),
			chromedp.Navigate(base+"/"),
			chromedp.WaitVisible(`main[data-refreshes]`),
		)
		shotPNG := value(t, ctx, chromedp.CaptureScreenshot())
		cfg, err := png.DecodeConfig(bytes.NewReader(shotPNG))
		if err != nil {
			t.Fatalf("%s is not a PNG: %v", shot.name, err)
		}
		if int64(cfg.Width) < shot.w || cfg.Height == 0 {
			t.Errorf("%s is %dx%d, want at least the viewport's width %d", shot.name, cfg.Width, cfg.Height, shot.w)
		}
		if err := os.WriteFile(filepath.Join(dir, shot.name), shotPNG, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestPageShowsFilteredRecords runs a job whose filter drops the access-log
// lines whose status is not 200, and checks in headless Chromium that the
// page shows those records as dropped on purpose, apart from errors, with
// the same numbers as /api/status/batches and /api/status.
func TestPageShowsFilteredRecords(t *testing.T) {
	ctx := browser(t)
	b := streamtest.StartBroker(t)
	df := accessJob(b, time.Unix(100, 0), false)
	df.Streams[0].Pipeline.Processors = append(df.Streams[0].Pipeline.Processors,
		streamtest.Processor("only_ok", "pkg.processor.FilterRecords", "field.name", "http_status", "field.value", "200"))
	e := streamtest.StartEngine(t, engine.Settings{}, df)
	base := startStatus(t, e)

	lines := append(streamtest.AccessLogLines(t)[:600], "not an access log line")
	b.ProduceLines(t, "raw", lines)
	deadline := time.Now().Add(60 * time.Second)
	var want status.StreamBatches
	for {
		doc := batchesDoc(t, base)
		if len(doc.Streams) == 1 {
			want = doc.Streams[0]
			if want.Totals.In == int64(len(lines)) && want.Totals.Out+want.Totals.Errors+want.Totals.Filtered == int64(len(lines)) {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the ring never accounted for %d records: %+v", len(lines), doc.Streams)
		}
		time.Sleep(100 * time.Millisecond)
	}
	var ok int64
	for _, l := range lines[:600] {
		if f := strings.Fields(l); len(f) > 8 && f[8] == "200" {
			ok++
		}
	}
	if want.Totals.Filtered != 600-ok || want.Totals.Errors != 1 || want.Totals.Out != ok || ok == 600 {
		t.Fatalf("totals %+v: want the %d lines of status 200 out, the %d others filtered, the bad line an error", want.Totals, ok, 600-ok)
	}

	browse(t, ctx, 60*time.Second, chromedp.Navigate(base+"/"), chromedp.WaitVisible(`main[data-refreshes]`))
	field := func(sel string) string {
		return strings.TrimSpace(value(t, ctx, chromedp.TextContent(`[data-stream="access"] `+sel)))
	}
	filtered := strconv.FormatInt(want.Totals.Filtered, 10)
	if got := field(`[data-field="filtered-total"]`); got != filtered {
		t.Errorf("page shows %s records dropped by filters, /api/status/batches %s", got, filtered)
	}
	if got := field(`[data-field="errors-total"]`); got != "1" {
		t.Errorf("page shows %s errors, want 1: filtered records are not errors", got)
	}
	if got := field(`[data-processor="only_ok"] [data-field="processor-filtered"]`); got != filtered {
		t.Errorf("filter row shows %s filtered, want %s", got, filtered)
	}
	if got := field(`[data-processor="apache_parser"] [data-field="processor-filtered"]`); got != "0" {
		t.Errorf("parser row shows %s filtered, want 0", got)
	}
	if got := field(`[data-field="rate-filtered"]`); got == "" {
		t.Error("no filtered rate on the page")
	}

	var api status.API
	_, body := get(t, base+"/api/status")
	if err := json.Unmarshal([]byte(body), &api); err != nil {
		t.Fatal(err)
	}
	st := api.Streams[0]
	if st.Totals.RecordsFiltered != want.Totals.Filtered || st.Totals.RecordsIn != int64(len(lines)) || st.Totals.RecordsErrors != 1 {
		t.Errorf("/api/status totals %+v, want %d in, %d filtered, 1 error", st.Totals, len(lines), want.Totals.Filtered)
	}
	if len(st.Processors) != 2 || st.Processors[1].Name != "only_ok" || st.Processors[1].RecordsDropped != want.Totals.Filtered {
		t.Errorf("/api/status processors %+v, want only_ok dropping %d", st.Processors, want.Totals.Filtered)
	}
}
