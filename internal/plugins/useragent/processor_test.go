package useragent

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/metrics"
	"github.com/weir-streams/weir/internal/plugins/useragent/uaparse"
	"github.com/weir-streams/weir/internal/record"
)

const (
	chromeMac = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_9_1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/32.0.1700.77 Safari/537.36"
	firefoxW7 = "Mozilla/5.0 (Windows NT 6.1; rv:27.0) Gecko/20100101 Firefox/27.0"
	googlebot = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
)

// build validates raw properties against the spec, as the engine does, and
// builds the processor with its metrics on reg.
func build(t *testing.T, reg *prometheus.Registry, kv ...string) *ParseUserAgent {
	t.Helper()
	spec := ParseUserAgentSpec()
	raw := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		raw[kv[i]] = kv[i+1]
	}
	conf, probs := component.NewConfig(&spec, raw)
	if len(probs) > 0 {
		t.Fatalf("config %v: %v", raw, probs)
	}
	if reg == nil {
		reg = prometheus.NewRegistry()
	}
	env := component.Env{Name: "ua", Stream: "s", Metrics: metrics.New(reg)}
	p, err := spec.NewProcessor(conf, env)
	if err != nil {
		t.Fatalf("NewProcessor: %v", err)
	}
	return p.(*ParseUserAgent)
}

func newRecord(kv ...string) *record.Record {
	r := record.New("id", "apache_log", 0)
	for i := 0; i+1 < len(kv); i += 2 {
		r.SetString(kv[i], kv[i+1])
	}
	return r
}

func process(t *testing.T, p *ParseUserAgent, recs ...*record.Record) {
	t.Helper()
	b := &component.Batch{Records: recs}
	if err := p.Process(context.Background(), b); err != nil {
		t.Fatalf("Process: %v", err)
	}
	if len(b.Records) != len(recs) {
		t.Fatalf("Process changed the batch from %d to %d records", len(recs), len(b.Records))
	}
}

func TestParseUserAgentSetsRequestedAttributes(t *testing.T) {
	cases := []struct {
		name string
		ua   string
		want map[string]string
	}{
		{"chrome on mac", chromeMac, map[string]string{
			"DeviceClass": "Desktop", "DeviceBrand": "Apple", "OperatingSystemName": "Mac OS",
			"OperatingSystemVersion": "10.9.1", "LayoutEngineName": "Blink", "AgentClass": "Browser",
			"AgentName": "Chrome", "AgentVersionMajor": "32", "AgentNameVersion": "Chrome 32.0.1700.77"}},
		{"firefox on windows 7", firefoxW7, map[string]string{
			"DeviceClass": "Desktop", "OperatingSystemName": "Windows NT", "OperatingSystemVersion": "7",
			"LayoutEngineName": "Gecko", "AgentClass": "Browser", "AgentName": "Firefox", "AgentVersionMajor": "27"}},
		{"googlebot", googlebot, map[string]string{
			"DeviceClass": "Robot", "AgentClass": "Robot", "AgentName": "Googlebot", "AgentVersionMajor": "2"}},
		{"iphone", "Mozilla/5.0 (iPhone; CPU iPhone OS 6_0 like Mac OS X) AppleWebKit/536.26 (KHTML, like Gecko) Version/6.0 Mobile/10A5376e Safari/8536.25",
			map[string]string{"DeviceClass": "Phone", "DeviceName": "Apple iPhone", "OperatingSystemName": "iOS",
				"OperatingSystemVersion": "6.0", "AgentName": "Safari"}},
		{"empty string", "", map[string]string{"DeviceClass": "Hacker", "AgentClass": "Hacker"}},
		{"sql injection", "Mozilla/5.0' OR 1=1 --", map[string]string{"DeviceClass": "Hacker"}},
	}
	fields := []string{"DeviceClass", "DeviceName", "DeviceBrand", "OperatingSystemName", "OperatingSystemVersion",
		"LayoutEngineName", "AgentClass", "AgentName", "AgentVersionMajor", "AgentNameVersion"}
	for _, cache := range []string{"0", "100"} {
		p := build(t, nil, "useragent.field", "http_user_agent", "fields", strings.Join(fields, ", "), "cache.size", cache)
		for _, c := range cases {
			t.Run(c.name+"/cache="+cache, func(t *testing.T) {
				// Twice, so that the second analysis is answered by the
				// cache when there is one.
				for range 2 {
					r := newRecord("http_user_agent", c.ua, "src_ip", "1.2.3.4")
					process(t, p, r)
					if got, _ := r.GetString("http_user_agent"); got != c.ua {
						t.Errorf("source field = %q, want it kept", got)
					}
					for k, want := range c.want {
						if got, _ := r.GetString(k); got != want {
							t.Errorf("%s = %q, want %q", k, got, want)
						}
					}
					// Only the requested attributes are set, beside the
					// record's own fields.
					if got, want := r.Len(), 4+len(fields); got != want {
						t.Errorf("record has %d fields, want %d: %v", got, want, r)
					}
					if r.HasErrors() {
						t.Errorf("record carries errors: %v", r.Errors())
					}
				}
			})
		}
	}
}

func TestParseUserAgentDefaultsToEveryAttribute(t *testing.T) {
	p := build(t, nil, "useragent.field", "ua")
	r := newRecord("ua", firefoxW7)
	process(t, p, r)
	for _, n := range uaparse.AttributeNames() {
		v, ok := r.Get(n)
		if !ok {
			t.Errorf("attribute %s not set", n)
			continue
		}
		if s, isString := v.AsString(); !isString || s == "" {
			t.Errorf("attribute %s = %v, want a non-empty string", n, v)
		}
	}
	if got, want := r.Len(), 3+len(uaparse.AttributeNames()); got != want {
		t.Errorf("record has %d fields, want %d", got, want)
	}
}

func TestParseUserAgentRecordWithoutFieldPassesUnchanged(t *testing.T) {
	p := build(t, nil, "useragent.field", "http_user_agent")
	r := newRecord("src_ip", "1.2.3.4")
	before := r.String()
	process(t, p, r)
	if after := r.String(); after != before {
		t.Errorf("record changed:\n%s\n%s", before, after)
	}
}

func TestParseUserAgentKeepFalseRemovesTheSource(t *testing.T) {
	p := build(t, nil, "useragent.field", "http_user_agent", "useragent.keep", "false", "fields", "AgentName")
	r := newRecord("http_user_agent", chromeMac)
	process(t, p, r)
	if r.Has("http_user_agent") {
		t.Errorf("source field kept with useragent.keep false: %v", r)
	}
	if got, _ := r.GetString("AgentName"); got != "Chrome" {
		t.Errorf("AgentName = %q, want Chrome", got)
	}

	// A source field named as a requested attribute becomes the attribute.
	p = build(t, nil, "useragent.field", "AgentName", "useragent.keep", "false", "fields", "AgentName,DeviceClass")
	r = newRecord("AgentName", chromeMac)
	process(t, p, r)
	if got, _ := r.GetString("AgentName"); got != "Chrome" {
		t.Errorf("AgentName = %q, want Chrome", got)
	}
}

func TestParseUserAgentNonStringField(t *testing.T) {
	p := build(t, nil, "useragent.field", "ua", "fields", "DeviceClass")
	r := record.New("id", "t", 0)
	r.Set("ua", record.IntValue(42))
	process(t, p, r)
	if got, _ := r.GetString("DeviceClass"); got == "" {
		t.Errorf("DeviceClass not set for a numeric user agent: %v", r)
	}
}

func TestParseUserAgentHostileInputsNeverFail(t *testing.T) {
	p := build(t, nil, "useragent.field", "ua", "fields", "DeviceClass,AgentName,HackerAttackVector")
	inputs := []string{
		"", strings.Repeat("A", 1<<20), "\x00\xff\xfe binary \x01", "((((((((((", ")))))",
		"<script>alert(1)</script>", "() { :; }; /bin/bash -c 'cat /etc/passwd'", "../../../../etc/passwd",
		"Mozilla/5.0 (" + strings.Repeat("(;", 10000) + ")", "\xc3\x28 invalid utf-8",
	}
	var recs []*record.Record
	for _, in := range inputs {
		recs = append(recs, newRecord("ua", in))
	}
	process(t, p, recs...)
	for i, r := range recs {
		if r.HasErrors() {
			t.Errorf("input %d failed the record: %v", i, r.Errors())
		}
		for _, n := range []string{"DeviceClass", "AgentName", "HackerAttackVector"} {
			if got, _ := r.GetString(n); got == "" {
				t.Errorf("input %d: %s is empty", i, n)
			}
		}
	}
	if got, _ := recs[1].GetString("HackerAttackVector"); got != "Buffer overflow" {
		t.Errorf("megabyte input: HackerAttackVector = %q, want Buffer overflow", got)
	}
}

func TestParseUserAgentValidation(t *testing.T) {
	spec := ParseUserAgentSpec()
	cases := []struct {
		name    string
		raw     map[string]string
		wantMsg []string // substrings of the problems; none means valid
	}{
		{"minimal", map[string]string{"useragent.field": "ua"}, nil},
		{"every key", map[string]string{"useragent.field": "ua", "fields": "DeviceClass, AgentName ,AgentNameVersionMajor",
			"useragent.keep": "false", "cache.size": "0"}, nil},
		{"missing field", map[string]string{}, []string{`missing required property "useragent.field"`}},
		{"unknown attribute", map[string]string{"useragent.field": "ua", "fields": "DeviceClass,AgentNmae"},
			[]string{`"AgentNmae" is not a user-agent attribute`, `did you mean "AgentName"?`, "valid attributes are DeviceClass, DeviceName,", "WebviewAppVersionMajor"}},
		{"lower-case attribute", map[string]string{"useragent.field": "ua", "fields": "deviceclass"},
			[]string{`"deviceclass" is not a user-agent attribute`, `did you mean "DeviceClass"?`}},
		{"empty fields", map[string]string{"useragent.field": "ua", "fields": " , "}, []string{"at least one attribute"}},
		{"negative cache", map[string]string{"useragent.field": "ua", "cache.size": "-1"}, []string{"out of range"}},
		{"cache not a number", map[string]string{"useragent.field": "ua", "cache.size": "many"}, []string{"not an integer"}},
		{"keep not a bool", map[string]string{"useragent.field": "ua", "useragent.keep": "yes"}, []string{"not true or false"}},
		{"unknown key", map[string]string{"useragent.field": "ua", "field": "x"}, []string{`unknown property "field"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, probs := component.NewConfig(&spec, c.raw)
			if len(c.wantMsg) == 0 {
				if len(probs) > 0 {
					t.Fatalf("valid config refused: %v", probs)
				}
				return
			}
			if len(probs) == 0 {
				t.Fatalf("invalid config accepted: %v", c.raw)
			}
			msg := fmt.Sprint(probs)
			for _, w := range c.wantMsg {
				if !strings.Contains(msg, w) {
					t.Errorf("problems %q do not mention %q", msg, w)
				}
			}
		})
	}
}

func TestNewRefusesBadOptions(t *testing.T) {
	if _, err := New(Options{Field: " "}, component.Env{}); err == nil {
		t.Error("empty field accepted")
	}
	if _, err := New(Options{Field: "ua", Fields: []string{"Nope"}}, component.Env{}); err == nil ||
		!strings.Contains(err.Error(), "valid attributes are") {
		t.Errorf("unknown attribute: err = %v", err)
	}
	// Duplicates are set once.
	p, err := New(Options{Field: "ua", Fields: []string{"AgentName", "AgentName"}}, component.Env{})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.attrs) != 1 {
		t.Errorf("attrs = %v, want one", p.attrs)
	}
}

func TestParseUserAgentMetrics(t *testing.T) {
	reg := prometheus.NewRegistry()
	p := build(t, reg, "useragent.field", "ua", "fields", "AgentName")
	process(t, p, newRecord("ua", chromeMac), newRecord("ua", chromeMac), newRecord("ua", firefoxW7), newRecord("x", "y"))
	want := map[string]float64{"analyzed": 2, "cached": 1, "missing_field": 1}
	got := outcomes(t, reg)
	for k, w := range want {
		if got[k] != w {
			t.Errorf("outcome %s = %v, want %v (all: %v)", k, got[k], w, got)
		}
	}
}

// outcomes returns weir_useragent_records_total by outcome, checking the
// labels that build gives.
func outcomes(t *testing.T, reg *prometheus.Registry) map[string]float64 {
	t.Helper()
	fams, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, f := range fams {
		if f.GetName() != "weir_useragent_records_total" {
			continue
		}
		for _, m := range f.GetMetric() {
			labels := map[string]string{}
			for _, l := range m.GetLabel() {
				labels[l.GetName()] = l.GetValue()
			}
			if labels["stream"] != "s" || labels["component"] != "ua" {
				t.Errorf("labels %v", labels)
			}
			got[labels["outcome"]] = m.GetCounter().GetValue()
		}
	}
	return got
}

// TestParseUserAgentRunsOfOneUserAgent covers the reuse of the previous
// record's analysis within a batch: every record of a run of the same user
// agent, and the first record after a run ends, carries its own user
// agent's attributes, whether it had room for them, no room left, or one
// of them already.
// Without a cache every record is analysed, as cache.size 0 promises.
func TestParseUserAgentRunsOfOneUserAgent(t *testing.T) {
	for _, c := range []struct {
		cache string
		want  map[string]float64
	}{
		{"100", map[string]float64{"analyzed": 2, "cached": 5, "missing_field": 1}},
		{"0", map[string]float64{"analyzed": 7, "cached": 0, "missing_field": 1}},
	} {
		t.Run("cache="+c.cache, func(t *testing.T) {
			reg := prometheus.NewRegistry()
			p := build(t, reg, "useragent.field", "ua", "fields", "AgentName, DeviceClass", "cache.size", c.cache)
			full := newRecord("ua", chromeMac)
			for i := full.Room(); i > 0; i-- {
				full.SetString(fmt.Sprintf("filler_%d", i), "x")
			}
			recs := []*record.Record{
				newRecord("ua", chromeMac),
				newRecord("ua", chromeMac, "AgentName", "stale"),
				full,
				newRecord("ua", firefoxW7),
				newRecord("other", "field"),
				newRecord("ua", firefoxW7),
				newRecord("ua", chromeMac),
				newRecord("ua", chromeMac),
			}
			lens := make([]int, len(recs))
			for i, r := range recs {
				lens[i] = r.Len()
			}
			process(t, p, recs...)
			for i, r := range recs {
				ua, ok := r.GetString("ua")
				if !ok {
					if r.Len() != lens[i] {
						t.Errorf("record %d without a user agent has %d fields, want %d", i, r.Len(), lens[i])
					}
					continue
				}
				want := "Chrome"
				if ua == firefoxW7 {
					want = "Firefox"
				}
				if got, _ := r.GetString("AgentName"); got != want {
					t.Errorf("record %d: AgentName = %q, want %q", i, got, want)
				}
				if got, _ := r.GetString("DeviceClass"); got != "Desktop" {
					t.Errorf("record %d: DeviceClass = %q, want Desktop", i, got)
				}
				// Each attribute once: record 1, which had AgentName,
				// keeps one field of that name.
				wantLen := lens[i] + 2
				if i == 1 {
					wantLen = lens[i] + 1
				}
				if r.Len() != wantLen {
					t.Errorf("record %d has %d fields, want %d: %v", i, r.Len(), wantLen, r)
				}
			}
			got := outcomes(t, reg)
			for k, w := range c.want {
				if got[k] != w {
					t.Errorf("outcome %s = %v, want %v (all: %v)", k, got[k], w, got)
				}
			}
		})
	}
}

// TestParseUserAgentConcurrentBatches runs batches of several partitions at
// once, as the stream does, for the race detector.
func TestParseUserAgentConcurrentBatches(t *testing.T) {
	p := build(t, nil, "useragent.field", "ua", "cache.size", "2")
	uas := []string{chromeMac, firefoxW7, googlebot, "curl/7.35.0", ""}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				ua := uas[(g+i)%len(uas)]
				r := newRecord("ua", ua)
				b := &component.Batch{Records: []*record.Record{r}}
				if err := p.Process(context.Background(), b); err != nil {
					t.Errorf("Process: %v", err)
					return
				}
				want := uaparse.New(uaparse.Options{}).Analyze(ua).Get("AgentName")
				if got, _ := r.GetString("AgentName"); got != want {
					t.Errorf("AgentName of %q = %q, want %q", ua, got, want)
					return
				}
			}
		}()
	}
	wg.Wait()
}
