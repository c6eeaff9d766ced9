package text_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/plugins/text"
	"github.com/weir-streams/weir/internal/record"
)

// combinedLine is the first line of the bundled real access log.
const combinedLine = `83.149.9.216 - - [17/May/2015:10:05:03 +0000] "GET /presentations/logstash-monitorama-2013/images/kibana-search.png HTTP/1.1" 200 203023 "http://semicomplete.com/presentations/logstash-monitorama-2013/" "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_9_1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/32.0.1700.77 Safari/537.36"`

func TestSplitTextGrok(t *testing.T) {
	s := record.StringValue
	tests := []struct {
		name    string
		conf    map[string]string
		value   string
		want    map[string]record.Value
		absent  []string
		wantErr string
	}{
		{
			name:  "%{PATTERN:field} captures, %{PATTERN} does not",
			conf:  map[string]string{"value.regex": `%{WORD:verb} %{NUMBER} %{GREEDYDATA:rest}`},
			value: "GET 42 the rest",
			want:  map[string]record.Value{"verb": s("GET"), "rest": s("the rest")},
			// The unnamed NUMBER sets nothing, and neither do the library's
			// own inner groups (BASE10NUM).
			absent: []string{"NUMBER", "BASE10NUM"},
		},
		{
			name:  ":int, :long, :float and :double give typed fields",
			conf:  map[string]string{"value.regex": `%{INT:a:int} %{INT:b:long} %{NUMBER:c:float} %{NUMBER:d:double} %{WORD:e:bool}`},
			value: "-7 +8 2.5 3 true",
			want: map[string]record.Value{"a": record.IntValue(-7), "b": record.IntValue(8), "c": record.FloatValue(2.5),
				"d": record.FloatValue(3), "e": record.BoolValue(true)},
		},
		{
			name:  "(?<field>...) and (?P<field>...) name fields too",
			conf:  map[string]string{"value.regex": `(?<first>\w+) (?P<second>\w+) (\w+)`},
			value: "one two three",
			want:  map[string]record.Value{"first": s("one"), "second": s("two")},
		},
		{
			name:  "dotted ECS names are kept without a mapping",
			conf:  map[string]string{"value.regex": `%{IPORHOST:source.address} %{WORD:http.request.method}`},
			value: "10.0.0.1 GET",
			want:  map[string]record.Value{"source.address": s("10.0.0.1"), "http.request.method": s("GET")},
		},
		{
			name:  "grok.field.mapping renames, spec and pairs together",
			conf:  map[string]string{"value.regex": `%{IP:source.address} %{WORD:verb}`, "grok.field.mapping": "spec,verb=method"},
			value: "10.0.0.1 GET",
			want:  map[string]record.Value{"src_ip": s("10.0.0.1"), "method": s("GET")},
		},
		{
			name:  "HTTPDATE mapped to record_time becomes epoch milliseconds",
			conf:  map[string]string{"value.regex": `%{COMBINEDAPACHELOG}`, "grok.field.mapping": "spec"},
			value: combinedLine,
			want: map[string]record.Value{"record_time": record.IntValue(1431857103000), "src_ip": s("83.149.9.216"),
				"http_method": s("GET"), "http_version": s("1.1"), "http_status": record.IntValue(200),
				"bytes_out": record.IntValue(203023), "http_referer": s("http://semicomplete.com/presentations/logstash-monitorama-2013/")},
			absent: []string{"identd", "user", "timestamp", "source.address"},
		},
		{
			name:    "an int beyond 64 bits is an error record",
			conf:    map[string]string{"value.regex": `%{NOTSPACE:n:int}`},
			value:   "99999999999999999999",
			wantErr: `type_conversion_error: field n: "99999999999999999999" is not an int`,
		},
		{
			name:  ":int and :float read the leading number as Logstash (Ruby's to_i, to_f) does",
			conf:  map[string]string{"value.regex": `%{NOTSPACE:a:int} %{NOTSPACE:b:float} %{NOTSPACE:c:int} %{GREEDYDATA:d:float}`},
			value: "12x 0.5s none 1e3\t-\tTLS",
			want:  map[string]record.Value{"a": record.IntValue(12), "b": record.FloatValue(0.5), "c": record.IntValue(0), "d": record.FloatValue(1000)},
		},
		{
			name:  "several expressions: the first that matches wins, grok.match.field names it",
			conf:  map[string]string{"value.regex": "%{INT:n:int} %{WORD:w}\n%{WORD:w} %{INT:n:int}\n", "grok.match.field": "grok_pattern"},
			value: "abc 12",
			want:  map[string]record.Value{"w": s("abc"), "n": record.IntValue(12), "grok_pattern": s("%{WORD:w} %{INT:n:int}")},
		},
		{
			name:    "no expression matches",
			conf:    map[string]string{"value.regex": "%{INT:n}\n%{IP:ip}"},
			value:   "abc",
			wantErr: "regex_matching_error: line matches none of the 2 expressions of value.regex",
		},
		{
			name:  "grok.pattern.definitions adds patterns and overrides the library's",
			conf:  map[string]string{"value.regex": `%{TICKET:t} %{WORD:w}`, "grok.pattern.definitions": "# inline\nTICKET [A-Z]+-%{INT}\nWORD [a-z]+\n"},
			value: "WEIR-25 grok",
			want:  map[string]record.Value{"t": s("WEIR-25"), "w": s("grok")},
		},
		{
			name:  "grok.named.captures.only false captures every pattern by its name",
			conf:  map[string]string{"value.regex": `%{INT:n} %{WORD}`, "grok.named.captures.only": "false"},
			value: "12 abc",
			want:  map[string]record.Value{"n": s("12"), "WORD": s("abc")},
		},
		{
			name:   "an empty capture sets no field, as in Logstash",
			conf:   map[string]string{"value.regex": `"%{DATA:ref}" %{WORD:w}`},
			value:  `"" abc`,
			want:   map[string]record.Value{"w": s("abc")},
			absent: []string{"ref"},
		},
		{
			name:  "value.fields may restate the named fields in any order",
			conf:  map[string]string{"value.regex": `%{INT:n} %{WORD:w}`, "value.fields": "w,n"},
			value: "12 abc",
			want:  map[string]record.Value{"n": s("12"), "w": s("abc")},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			conf := map[string]string{"record.type": "t"}
			for k, v := range tt.conf {
				conf[k] = v
			}
			p := newSplitTextConf(t, conf)
			r := record.New("id-1", "", 0)
			r.SetString(record.FieldValue, tt.value)
			b := component.Batch{Records: []*record.Record{r}}
			if err := p.Process(context.Background(), &b); err != nil {
				t.Fatal(err)
			}
			errs := strings.Join(r.Errors(), "; ")
			if tt.wantErr == "" && errs != "" {
				t.Fatalf("unexpected errors: %s", errs)
			}
			if tt.wantErr != "" {
				if !strings.Contains(errs, tt.wantErr) {
					t.Fatalf("errors = %q, want %q", errs, tt.wantErr)
				}
				if v, _ := r.GetString(record.FieldValue); v != tt.value {
					t.Errorf("an error record lost its raw line: %q", v)
				}
			}
			for k, want := range tt.want {
				if got, ok := r.Get(k); !ok || !got.Equal(want) {
					t.Errorf("field %s = %v (%v), want %v (%v)", k, got, got.Kind(), want, want.Kind())
				}
			}
			for _, k := range tt.absent {
				if r.Has(k) {
					t.Errorf("field %s is set, want absent", k)
				}
			}
		})
	}
}

func TestSplitTextGrokPatternsDir(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "tickets"), []byte("# Tickets\nTICKET [A-Z]+-%{POSINT}\n\nTICKETS %{TICKET}(?:,%{TICKET})*\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "more")
	if err := os.WriteFile(file, []byte("OWNER @%{USERNAME}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p := newSplitTextConf(t, map[string]string{"value.regex": `%{TICKETS:tickets} %{OWNER:owner}`, "grok.patterns.dir": dir + "," + file})
	r := record.New("id", "", 0)
	r.SetString(record.FieldValue, "WEIR-1,WEIR-25 @lead")
	if err := p.Process(context.Background(), &component.Batch{Records: []*record.Record{r}}); err != nil {
		t.Fatal(err)
	}
	if v, _ := r.GetString("tickets"); v != "WEIR-1,WEIR-25" {
		t.Errorf("tickets = %q", v)
	}
	if v, _ := r.GetString("owner"); v != "@lead" {
		t.Errorf("owner = %q", v)
	}
}

// TestSplitTextGrokValidation checks that each bad configuration is refused
// at validation with the key and what is wrong.
func TestSplitTextGrokValidation(t *testing.T) {
	tests := []struct {
		name string
		conf map[string]string
		want string
	}{
		{"unknown pattern", map[string]string{"value.regex": `%{NOSUCH:x}`},
			`property "value.regex": unknown pattern "NOSUCH" in %{NOSUCH:x}`},
		{"unknown type", map[string]string{"value.regex": `%{INT:x:integer64}`},
			`property "value.regex": %{INT:x:integer64}: unknown type "integer64"`},
		{"malformed reference", map[string]string{"value.regex": `%{INT:a:int:x}`},
			`property "value.regex": malformed reference %{INT:a:int:x}`},
		{"unterminated reference", map[string]string{"value.regex": `%{INT:x`},
			`property "value.regex": unterminated reference`},
		{"the expression of a line is named", map[string]string{"value.regex": "%{INT:x}\n%{NOPE}"},
			`property "value.regex", expression 2: unknown pattern "NOPE"`},
		{"a cycle", map[string]string{"value.regex": `%{A:x}`, "grok.pattern.definitions": "A %{B}\nB x%{A}"},
			`pattern "A" refers to itself (through A -> B -> A)`},
		{"fields that disagree", map[string]string{"value.regex": `%{INT:n} %{WORD:w}`, "value.fields": "n,word"},
			`"value.fields" does not agree with the named captures of "value.regex": it names "word", which no expression captures; ` +
				`it does not name "w", which the expressions capture`},
		{"a plain regex needs value.fields", map[string]string{"value.regex": `(\d+)`},
			`missing required property "value.fields": property "value.regex" has no named captures, so "value.fields" must name its 1 capture groups`},
		{"a bad definition line", map[string]string{"value.regex": `%{INT:n}`, "grok.pattern.definitions": "NOEXPRESSION"},
			`property "grok.pattern.definitions": definition line 1: want NAME followed by its expression`},
		{"a bad definition name", map[string]string{"value.regex": `%{INT:n}`, "grok.pattern.definitions": "BAD-NAME x"},
			`pattern name "BAD-NAME" may hold only letters, digits and _`},
		{"a missing patterns dir", map[string]string{"value.regex": `%{INT:n}`, "grok.patterns.dir": "/nonexistent/patterns"},
			`property "grok.patterns.dir": pattern files: stat /nonexistent/patterns`},
		{"a bad mapping", map[string]string{"value.regex": `%{INT:n}`, "grok.field.mapping": "ecs2"},
			`property "grok.field.mapping": "ecs2" is neither a built-in mapping (spec) nor a from=to pair`},
		{"a key regex without key fields", map[string]string{"value.regex": `%{INT:n}`, "key.regex": `(\w+)`},
			`properties "key.regex" and "key.fields" must be given together: property "key.regex" has no named captures`},
		{"a grok expression that captures nothing", map[string]string{"value.regex": `%{IP} %{WORD}`},
			`property "value.regex" captures no field: name one, as in %{IP:client} or (?<client>...)`},
		{"an expansion regexp refuses", map[string]string{"value.regex": `%{INT:n}(`},
			`property "value.regex": expression does not compile: error parsing regexp: missing closing )`},
		{"key.fields without key.regex", map[string]string{"value.regex": `%{INT:n}`, "key.fields": "a"},
			`properties "key.regex" and "key.fields" must be given together`},
	}
	spec := text.SplitTextSpec()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, probs := component.NewConfig(&spec, tt.conf)
			err := probs.Err()
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("validation error = %v\nwant it to contain %s", err, tt.want)
			}
		})
	}
}
