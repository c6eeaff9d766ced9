package expr_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/weir-streams/weir/internal/expr"
	"github.com/weir-streams/weir/internal/record"
)

func sample() *record.Record {
	r := record.New("id1", "apache_log", 0)
	r.SetString("src_ip", "83.149.9.216")
	r.SetString("http_method", "GET")
	r.SetString("http_query", "/presentations/logstash-monitorama-2013/images/kibana-search.png")
	r.Set("http_status", record.IntValue(200))
	r.Set("bytes_out", record.IntValue(203023))
	r.Set("ratio", record.FloatValue(0.5))
	r.Set("joker", record.BoolValue(false))
	r.SetString("name", "bonjour")
	r.Set("age", record.IntValue(29))
	r.SetString("status_text", "200")
	return r
}

func TestEval(t *testing.T) {
	r := sample()
	for _, tt := range []struct {
		src  string
		want record.Value
	}{
		{`http_status == 200`, record.BoolValue(true)},
		{`http_status >= 500`, record.BoolValue(false)},
		{`http_status == 200.0`, record.BoolValue(true)},
		{`status_text == 200`, record.BoolValue(false)}, // a string never equals a number
		{`int(status_text) == 200`, record.BoolValue(true)},
		{`http_method in ["GET", "HEAD"]`, record.BoolValue(true)},
		{`http_method not in ["GET", "HEAD"]`, record.BoolValue(false)},
		{`http_query matches "\\.png$"`, record.BoolValue(true)},
		{`http_query startsWith "/presentations"`, record.BoolValue(true)},
		{`http_query endsWith ".css"`, record.BoolValue(false)},
		{`http_query contains "kibana"`, record.BoolValue(true)},
		{`name.startsWith("bon")`, record.BoolValue(true)},
		{`not (http_status < 400)`, record.BoolValue(false)},
		{`!joker && age > 18`, record.BoolValue(true)},
		{`missing == nil`, record.BoolValue(true)},
		{`missing > 3`, record.BoolValue(false)},
		{`has("src_ip") and !has("missing")`, record.BoolValue(true)},
		{`missing ?? "default"`, record.StringValue("default")},
		{`src_ip ?? "default"`, record.StringValue("83.149.9.216")},
		{`http_status >= 500 ? "errors_5xx" : "logs"`, record.StringValue("logs")},
		{`name + "-" + age`, record.StringValue("bonjour-29")},
		{`bytes_out / 1000`, record.FloatValue(203.023)},
		{`bytes_out % 1000 + 1`, record.IntValue(24)},
		{`-age * 2`, record.IntValue(-58)},
		{`ratio * 4`, record.FloatValue(2)},
		{`len(name)`, record.IntValue(7)},
		{`upper(http_method)`, record.StringValue("GET")},
		{`lower("ABC") == "abc"`, record.BoolValue(true)},
		{`string(http_status)`, record.StringValue("200")},
		{`float(age)`, record.FloatValue(29)},
		{`abs(-3)`, record.IntValue(3)},
		{`trim("  x ")`, record.StringValue("x")},
		{`fields["src_ip"]`, record.StringValue("83.149.9.216")},
		{`name < "z"`, record.BoolValue(true)},
	} {
		p, err := expr.Compile(tt.src)
		if err != nil {
			t.Errorf("Compile(%q): %v", tt.src, err)
			continue
		}
		got, err := p.Eval(r)
		if err != nil {
			t.Errorf("Eval(%q): %v", tt.src, err)
			continue
		}
		if !got.Equal(tt.want) {
			t.Errorf("Eval(%q) = %s %s, want %s %s", tt.src, got.Kind(), got, tt.want.Kind(), tt.want)
		}
	}
}

func TestCompileErrorsGiveTheColumn(t *testing.T) {
	for _, tt := range []struct {
		src    string
		column int
		msg    string
	}{
		{`http_status == `, 15, "unexpected token"},
		{`http_status === 200`, 15, "unexpected token"},
		{`foo(1)`, 1, `unknown function "foo"`},
		{`a && b.c`, 8, "member access is not supported"},
		{`x matches "("`, 11, "invalid regular expression"},
		{`x in y`, 6, "list of constants"},
		{`[1, 2]`, 1, "only supported as the right side of in"},
		{`  `, 1, "empty expression"},
		{`let x = 1; x`, 5, "not supported"},
	} {
		_, err := expr.Compile(tt.src)
		var e *expr.Error
		if !errors.As(err, &e) {
			t.Errorf("Compile(%q) = %v, want an *expr.Error", tt.src, err)
			continue
		}
		if e.Column != tt.column || !strings.Contains(e.Msg, tt.msg) {
			t.Errorf("Compile(%q) = column %d %q, want column %d and %q", tt.src, e.Column, e.Msg, tt.column, tt.msg)
		}
	}
}

func TestRuntimeErrors(t *testing.T) {
	r := sample()
	for _, src := range []string{`name > 3`, `name * 2`, `-name`, `name && true`, `age matches "x"`, `int(name)`} {
		p := expr.MustCompile(src)
		if v, err := p.Eval(r); err == nil {
			t.Errorf("Eval(%q) = %s, want an error", src, v)
		}
	}
	if _, err := expr.MustCompile(`name`).EvalBool(r); err == nil {
		t.Error("EvalBool of a string gave no error")
	}
	if ok, err := expr.MustCompile(`missing`).EvalBool(r); ok || err != nil {
		t.Errorf("EvalBool of a missing field = %v, %v; want false, nil", ok, err)
	}
}

func TestTemplate(t *testing.T) {
	r := sample()
	tp, err := expr.ParseTemplate(`${name + "-" + age}`)
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := tp.Eval(r); v.Text() != "bonjour-29" {
		t.Errorf("template = %s", v)
	}
	tp, _ = expr.ParseTemplate("plain")
	if v, _ := tp.Eval(r); v.Text() != "plain" || tp.Prog != nil {
		t.Errorf("constant template = %s", v)
	}
	_, err = expr.ParseTemplate(`${a ==}`)
	var e *expr.Error
	if !errors.As(err, &e) || e.Column != 6 {
		t.Errorf("ParseTemplate error = %v, want column 6 of the whole value", err)
	}
}

func TestFields(t *testing.T) {
	p := expr.MustCompile(`a == 1 || b > a && has("c") || fields["d e"] == ""`)
	if got := strings.Join(p.Fields(), ","); got != "a,b,d e" {
		t.Errorf("Fields = %s", got)
	}
}

// TestLogIslandRewrites evaluates the rewrites of LogIsland's MVEL samples
// that docs/expressions.md shows, so the table cannot drift from the
// language.
func TestLogIslandRewrites(t *testing.T) {
	r := record.New("id", "t", 0)
	r.SetString("field1", "bonjour")
	r.Set("field2", record.IntValue(14))
	r.SetString("name", "jojo")
	r.Set("age", record.IntValue(29))
	r.SetString("mother", "jocelyne")
	r.Set("joker", record.BoolValue(false))
	r.SetString("Company", "acme")
	r.SetString("CompanyFromERP", "")
	r.SetString("CompanyFromLocation", "loc")
	r.SetString("country", "FR")
	r.SetString("countryCode", "xx")
	r.SetString("B2BUnit", "SL899999")
	r.SetString("sourceOrigin", "web")
	r.Set("bytes_payload", record.BytesValue([]byte("payload")))
	for _, tt := range []struct{ src, want string }{
		{`${field1 + "_" + field2}`, "bonjour_14"},
		{`${field1 + "-" + field2}`, "bonjour-14"},
		{`${"_" + field1 + "-"}`, "_bonjour-"},
		{`age > 18`, "true"},
		{`name startsWith "GR"`, "false"},
		{`name.startsWith("GR")`, "false"},
		{`name contains "jo" && age > 25 && mother == "jocelyne" || joker == true`, "true"},
		{`${'workit_' + Company}`, "workit_acme"},
		{`${CompanyFromERP != nil && CompanyFromERP != '' ? CompanyFromERP : CompanyFromLocation}`, "loc"},
		{`${country != nil && country != '' ? lower(country) : countryCode}`, "fr"},
		{`${codeProduct == nil || len(codeProduct) == 0 ? 'undefined' : codeProduct}`, "undefined"},
		{`${B2BUnit in ['SL899999', 'SL8999998'] ? 'internal_traffic' : sourceOrigin}`, "internal_traffic"},
		{`${string(bytes_payload)}`, "payload"},
		{`${'{ "_id" :"' + record_id + '"}'}`, `{ "_id" :"id"}`},
	} {
		body, _ := expr.Unwrap(tt.src)
		p, err := expr.Compile(body)
		if err != nil {
			t.Errorf("%s: %v", tt.src, err)
			continue
		}
		v, err := p.Eval(r)
		if err != nil || v.Text() != tt.want {
			t.Errorf("%s = %s, %v; want %s", tt.src, v, err, tt.want)
		}
	}
	// The samples the table marks not supported are refused at compile
	// time, with the column of what is not taken.
	for _, tt := range []struct {
		src    string
		column int
	}{
		{`${["france", "allemagne"]}`, 1},
		{`${["france" : 100, "allemagne" : 50]}`, 11},
		{`${'openanalytics_websessions-' + new java.text.SimpleDateFormat('yyyy.MM').format(new java.util.Date(h2kTimestamp))}`, 36},
	} {
		body, _ := expr.Unwrap(tt.src)
		_, err := expr.Compile(body)
		if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("column %d:", tt.column)) {
			t.Errorf("%s: %v, want an error at column %d", tt.src, err, tt.column)
		}
	}
}
