package urlrequest

import (
	"context"
	"strings"
	"testing"

	"github.com/weir-streams/weir/sdk"
)

func TestParseUrlRequest(t *testing.T) {
	cases := []struct {
		name   string
		conf   map[string]string
		target string
		want   map[string]string // field -> value; "" means absent
		err    string
	}{
		{"path and extension", nil, "/images/Kibana-Search.PNG", map[string]string{"url_path": "/images/Kibana-Search.PNG", "url_extension": "png"}, ""},
		{"query decoded", nil, "/search?q=caf%C3%A9+au+lait&page=2",
			map[string]string{"url_path": "/search", "url_extension": "", "query_q": "café au lait", "query_page": "2"}, ""},
		{"repeated parameter is a list", nil, "/a?x=1&x=2", map[string]string{"query_x": `["1","2"]`}, ""},
		{"absolute form", nil, "http://example.com:8080/dir/file.tar.gz?a=b", map[string]string{"url_path": "/dir/file.tar.gz", "url_extension": "gz", "query_a": "b"}, ""},
		{"no extension for a version dir", nil, "/v1.2/", map[string]string{"url_path": "/v1.2/", "url_extension": ""}, ""},
		{"fragment dropped", nil, "/p.html#top", map[string]string{"url_path": "/p.html", "url_extension": "html"}, ""},
		{"bad escape kept raw", nil, "/a%zz?k=%E8%F1", map[string]string{"url_path": "/a%zz", "query_k": "%E8%F1"}, ""},
		{"bad escape is an error when asked", map[string]string{"on.invalid": "error"}, "/a%zz", nil, "url_parsing_error: path"},
		{"keep and prefix", map[string]string{"query.keep": "utm_source", "query.prefix": "p."}, "/?utm_source=news&x=1",
			map[string]string{"p.utm_source": "news", "p.x": ""}, ""},
		{"max", map[string]string{"query.max": "1"}, "/?a=1&b=2", map[string]string{"query_a": "1", "query_b": ""}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, err := sdk.Local(Spec(), tc.conf, sdk.Env{})
			if err != nil {
				t.Fatal(err)
			}
			r := sdk.NewRecord("id", "apache_log", 0)
			r.SetString("http_query", tc.target)
			b := &sdk.Batch{Records: []*sdk.Record{r}}
			if err := p.Process(context.Background(), b); err != nil {
				t.Fatal(err)
			}
			if tc.err != "" {
				if !r.HasErrors() || !strings.HasPrefix(r.Errors()[0], tc.err) {
					t.Fatalf("errors %v, want %q", r.Errors(), tc.err)
				}
				return
			}
			if r.HasErrors() {
				t.Fatalf("unexpected errors %v", r.Errors())
			}
			for f, want := range tc.want {
				v, ok := r.Get(f)
				switch {
				case want == "" && ok:
					t.Errorf("%s = %v, want absent", f, v)
				case want == "":
				case !ok:
					t.Errorf("%s absent, want %q", f, want)
				case v.Kind().String() == "array" && v.String() != want:
					t.Errorf("%s = %s, want %s", f, v, want)
				case v.Kind().String() == "string" && v.Text() != want:
					t.Errorf("%s = %q, want %q", f, v.Text(), want)
				}
			}
		})
	}
}

// TestRecordWithoutField: a record without the field passes unchanged.
func TestRecordWithoutField(t *testing.T) {
	p, err := sdk.Local(Spec(), nil, sdk.Env{})
	if err != nil {
		t.Fatal(err)
	}
	r := sdk.NewRecord("id", "t", 0)
	before := r.String()
	if err := p.Process(context.Background(), &sdk.Batch{Records: []*sdk.Record{r}}); err != nil {
		t.Fatal(err)
	}
	if r.String() != before {
		t.Fatalf("record changed: %s", r)
	}
}

// TestConfigRefused: values are validated as Weir validates them.
func TestConfigRefused(t *testing.T) {
	_, err := sdk.Local(Spec(), map[string]string{"on.invalid": "ignore", "query.mx": "3"}, sdk.Env{})
	if err == nil || !strings.Contains(err.Error(), `"ignore" is not one of raw, error`) || !strings.Contains(err.Error(), `did you mean "query.max"`) {
		t.Fatalf("error %v", err)
	}
}

// TestCheck: settings that do not make sense together are refused, each
// problem on its own; url.field and path.field may be one field (the target
// is replaced by its path).
func TestCheck(t *testing.T) {
	_, err := sdk.Local(Spec(), map[string]string{
		"path.field": "u", "extension.field": "u", "query.keep": "utm_source", "query.max": "0",
	}, sdk.Env{})
	if err == nil {
		t.Fatal("conflicting settings accepted")
	}
	for _, want := range []string{`path.field and extension.field both name field "u"`, "query.max is 0"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if _, err := sdk.Local(Spec(), map[string]string{"url.field": "target", "path.field": "target"}, sdk.Env{}); err != nil {
		t.Fatalf("url.field = path.field refused: %v", err)
	}
}

// TestReadsOnlyTarget: the processor declares that it reads only url.field,
// and behaves the same whether or not it is given the record's other
// fields: a parameter field the record had before is replaced, not turned
// into a list with the new value.
func TestReadsOnlyTarget(t *testing.T) {
	spec := Spec()
	conf := map[string]string{"url.field": "target"}
	p, err := sdk.Local(spec, conf, sdk.Env{})
	if err != nil {
		t.Fatal(err)
	}
	r := sdk.NewRecord("id", "apache_log", 0)
	r.SetString("target", "/a?x=1&y=2&y=3")
	r.SetString("query_x", "stale")
	if err := p.Process(context.Background(), &sdk.Batch{Records: []*sdk.Record{r}}); err != nil {
		t.Fatal(err)
	}
	if v, _ := r.Get("query_x"); v.Text() != "1" {
		t.Errorf("query_x = %v, want 1 (the stale field replaced)", v)
	}
	if v, _ := r.Get("query_y"); v.String() != `["2","3"]` {
		t.Errorf("query_y = %v, want [\"2\",\"3\"] (a parameter repeated in the target)", v)
	}
	if spec.Reads == nil {
		t.Fatal("Spec declares no Reads: Weir would send every field")
	}
}
