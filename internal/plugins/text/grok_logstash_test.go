package text_test

import (
	"context"
	"strings"
	"testing"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/plugins/text"
	"github.com/weir-streams/weir/internal/record"
)

// parseOne runs a SplitText built from conf on one line, with extra
// fields already on the record, and returns the record.
func parseOne(t *testing.T, conf map[string]string, line string, extra map[string]record.Value) *record.Record {
	t.Helper()
	p := newSplitTextConf(t, conf)
	r := record.New("id", "", 0)
	r.SetString(record.FieldValue, line)
	for k, v := range extra {
		r.Set(k, v)
	}
	if err := p.Process(context.Background(), &component.Batch{Records: []*record.Record{r}}); err != nil {
		t.Fatal(err)
	}
	return r
}

func wantFields(t *testing.T, r *record.Record, want map[string]record.Value, absent ...string) {
	t.Helper()
	if r.HasErrors() {
		t.Fatalf("errors: %v", r.Errors())
	}
	for k, w := range want {
		if got, ok := r.Get(k); !ok || !got.Equal(w) {
			t.Errorf("%s = %v (set %v), want %v", k, got, ok, w)
		}
	}
	for _, k := range absent {
		if r.Has(k) {
			t.Errorf("%s is set, want none", k)
		}
	}
}

func TestGrokLogstashSemantics(t *testing.T) {
	s := record.StringValue
	t.Run("a grok expression matches anywhere in the line", func(t *testing.T) {
		r := parseOne(t, map[string]string{"value.regex": `%{INT:n:int} connection`}, "ASA-2-106001: 42 connection denied", nil)
		wantFields(t, r, map[string]record.Value{"n": record.IntValue(42)})
	})
	t.Run("a plain regular expression stays anchored at the start", func(t *testing.T) {
		r := parseOne(t, map[string]string{"value.regex": `(\d+) connection`, "value.fields": "n"}, "x 42 connection", nil)
		if !r.HasErrors() {
			t.Fatalf("matched: %v", r.Fields())
		}
	})
	t.Run("lookbehind, lookahead and atomic groups run on the backtracking engine", func(t *testing.T) {
		r := parseOne(t, map[string]string{"value.regex": `(?<![0-9])(?<n>(?>[0-9]+))(?![0-9]) é (?<w>\w+)`}, "ab12345 é word", nil)
		wantFields(t, r, map[string]record.Value{"n": s("12345"), "w": s("word")})
	})
	t.Run("byte positions after multi-byte text on the backtracking engine", func(t *testing.T) {
		r := parseOne(t, map[string]string{"value.regex": `(?<=é) %{WORD:w}(?=!)`}, "中éé word!", nil)
		wantFields(t, r, map[string]record.Value{"w": s("word")})
	})
	t.Run("POSIX classes inside brackets, nested sets flattened, Unicode as Oniguruma", func(t *testing.T) {
		r := parseOne(t, map[string]string{"value.regex": `^(?<p>[[[:alnum:]]_/.]+)$`}, "/opt/Čierný_Peter/.中", nil)
		wantFields(t, r, map[string]record.Value{"p": s("/opt/Čierný_Peter/.中")})
	})
	t.Run("nested Logstash names become dotted fields", func(t *testing.T) {
		r := parseOne(t, map[string]string{"value.regex": `%{IP:[source][ip]} (?<[http][request][method]>\w+)`}, "10.0.0.1 GET", nil)
		wantFields(t, r, map[string]record.Value{"source.ip": s("10.0.0.1"), "http.request.method": s("GET")})
	})
	t.Run("break_on_match false applies every expression that matches", func(t *testing.T) {
		conf := map[string]string{"value.regex": "%{INT:a}\n%{WORD:b}$\n%{IP:c}", "grok.break.on.match": "false"}
		r := parseOne(t, conf, "12 xyz", nil)
		wantFields(t, r, map[string]record.Value{"a": s("12"), "b": s("xyz")}, "c")
		conf["grok.break.on.match"] = "true"
		r = parseOne(t, conf, "12 xyz", nil)
		wantFields(t, r, map[string]record.Value{"a": s("12")}, "b", "c")
	})
	t.Run("a capture into a field the record holds makes an array, unless overwrite names it", func(t *testing.T) {
		conf := map[string]string{"value.regex": `%{WORD:message} %{WORD:other}`}
		old := map[string]record.Value{"message": s("orig"), "other": s("was")}
		r := parseOne(t, conf, "new one", old)
		wantFields(t, r, map[string]record.Value{"message": record.ArrayValue([]record.Value{s("orig"), s("new")}),
			"other": record.ArrayValue([]record.Value{s("was"), s("one")})})
		conf["grok.overwrite"] = "message"
		r = parseOne(t, conf, "new one", old)
		wantFields(t, r, map[string]record.Value{"message": s("new"), "other": record.ArrayValue([]record.Value{s("was"), s("one")})})
	})
	t.Run("a field captured twice in one match holds both", func(t *testing.T) {
		r := parseOne(t, map[string]string{"value.regex": `%{WORD:q} %{WORD:q}`}, "a b", nil)
		wantFields(t, r, map[string]record.Value{"q": record.ArrayValue([]record.Value{s("a"), s("b")})})
	})
	t.Run("keep_empty_captures", func(t *testing.T) {
		conf := map[string]string{"value.regex": `%{WORD:a}=(?<b>\d*);`}
		wantFields(t, parseOne(t, conf, "x=;", nil), map[string]record.Value{"a": s("x")}, "b")
		conf["grok.keep.empty.captures"] = "true"
		wantFields(t, parseOne(t, conf, "x=;", nil), map[string]record.Value{"a": s("x"), "b": s("")})
	})
	t.Run("tag_on_failure is the error type", func(t *testing.T) {
		r := parseOne(t, map[string]string{"value.regex": `%{IP:ip}`, "grok.tag.on.failure": "_grokparsefailure"}, "no address", nil)
		if errs := strings.Join(r.Errors(), ";"); !strings.HasPrefix(errs, "_grokparsefailure: ") {
			t.Errorf("errors = %q", errs)
		}
	})
	t.Run("inline pattern_definitions may use Oniguruma syntax", func(t *testing.T) {
		conf := map[string]string{"value.regex": `%{TICKET:t}`, "grok.pattern.definitions": "TICKET (?<![\\w-])[A-Z]+-%{POSINT}"}
		wantFields(t, parseOne(t, conf, "see aWEIR-12 and WEIR-7", nil), map[string]record.Value{"t": s("WEIR-7")})
	})
	t.Run("a multi-line message is one value: . matches a line end", func(t *testing.T) {
		r := parseOne(t, map[string]string{"value.regex": `%{WORD:level}: %{GREEDYDATA:msg}`}, "SEVERE: boom\n\tat a.b(C.java:1)", nil)
		wantFields(t, r, map[string]record.Value{"msg": s("boom\n\tat a.b(C.java:1)")})
	})
}

func TestGrokECSCompatibility(t *testing.T) {
	line := combinedLine
	r := parseOne(t, map[string]string{"value.regex": `%{COMBINEDAPACHELOG}`, "grok.ecs.compatibility": "v8"}, line, nil)
	wantFields(t, r, map[string]record.Value{"http.request.method": record.StringValue("GET")})
	// disabled: the built-in library's legacy names, as Logstash's
	// patterns/legacy writes them (the referrer with its quotes, the
	// status as text).
	r = parseOne(t, map[string]string{"value.regex": `%{COMBINEDAPACHELOG}`, "grok.ecs.compatibility": "disabled"}, line, nil)
	wantFields(t, r, map[string]record.Value{
		"clientip": record.StringValue("83.149.9.216"), "ident": record.StringValue("-"), "verb": record.StringValue("GET"),
		"httpversion": record.StringValue("1.1"), "response": record.StringValue("200"), "bytes": record.StringValue("203023"),
		"referrer": record.StringValue(`"http://semicomplete.com/presentations/logstash-monitorama-2013/"`),
	}, "http.request.method")
	// A legacy log format the built-in library lacks is refused with the
	// hint to load Logstash's files.
	p := map[string]string{"value.regex": `%{NETSCREENSESSIONLOG}`, "grok.ecs.compatibility": "disabled"}
	spec := text.SplitTextSpec()
	_, probs := component.NewConfig(&spec, p)
	err := probs.Err()
	if err == nil || !strings.Contains(err.Error(), `unknown pattern "NETSCREENSESSIONLOG"`) || !strings.Contains(err.Error(), "grok.patterns.dir") {
		t.Errorf("disabled, a legacy format the library lacks: %v, want it unknown with the hint", err)
	}
	// The building blocks are there in every mode.
	r = parseOne(t, map[string]string{"value.regex": `%{IPORHOST:clientip} %{USER:ident}`, "grok.ecs.compatibility": "disabled"}, "10.0.0.1 bob", nil)
	wantFields(t, r, map[string]record.Value{"clientip": record.StringValue("10.0.0.1"), "ident": record.StringValue("bob")})
}

// TestGrokTimeout: a hostile line against a catastrophically backtracking
// expression becomes a grok_timeout error record, and the records after
// it in the batch (the partition) are parsed.
func TestGrokTimeout(t *testing.T) {
	p := newSplitTextConf(t, map[string]string{
		// (\w+\s?)+ before a lookahead that fails: the backtracking
		// engine tries every way to split the run of a's.
		"value.regex":         `^(?<x>(?:\w+\s?)+)(?=!)|^(?<y>\w+) ok`,
		"grok.timeout.millis": "50",
	})
	lines := []string{"first ok", strings.Repeat("a", 64) + "c", "third ok"}
	var b component.Batch
	for _, l := range lines {
		r := record.New("id", "", 0)
		r.SetString(record.FieldValue, l)
		b.Records = append(b.Records, r)
	}
	if err := p.Process(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"first", "", "third"} {
		r := b.Records[i]
		if want == "" {
			errs := strings.Join(r.Errors(), ";")
			if !strings.HasPrefix(errs, "grok_timeout: ") {
				t.Errorf("record %d: errors = %q, want grok_timeout", i, errs)
			}
			if v, _ := r.GetString(record.FieldValue); v != lines[i] {
				t.Errorf("record %d lost its raw line", i)
			}
			continue
		}
		wantFields(t, r, map[string]record.Value{"y": record.StringValue(want)})
	}
}

// TestGrokErrorsNameThePattern: an expression that no engine accepts is
// refused with the pattern at fault and where it is referenced.
func TestGrokErrorsNameThePattern(t *testing.T) {
	spec := text.SplitTextSpec()
	_, probs := component.NewConfig(&spec, map[string]string{
		"value.regex":              `%{WORD:w} %{BROKEN:b}`,
		"grok.pattern.definitions": "INNER (?<=a+)x(\nBROKEN %{INNER}",
	})
	err := probs.Err()
	if err == nil || !strings.Contains(err.Error(), `pattern "INNER"`) {
		t.Fatalf("error = %v, want it to name INNER", err)
	}
	if strings.Contains(err.Error(), "invalid named capture") {
		t.Errorf("error = %v", err)
	}
	// A lookbehind alone is fine: it runs on the backtracking engine.
	if _, probs := component.NewConfig(&spec, map[string]string{"value.regex": `(?<![0-9])%{INT:n}`}); probs.Err() != nil {
		err := probs.Err()
		t.Errorf("lookbehind refused: %v", err)
	}
}
