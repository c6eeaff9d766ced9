package fields_test

import (
	"strings"
	"testing"

	"github.com/weir-streams/weir/internal/plugins/fields"
	"github.com/weir-streams/weir/internal/record"
)

// The rules are those of LogIsland's webanalytics.yml job files
// (logisland-tests/webanal-spark-2.4-streaming-pipeline), as shipped.
func TestApplyRegexp(t *testing.T) {
	const location = `googletranslate,webshop,tagOrigin,countryCode:(https\:\/\/translate\.google.*\.com/.+)?https\:\/\/([^\/\.\-]+[\.\-](preprod)?[^\/]+)\/?(\w+)?\/?.*`
	const class4 = `categoryNiv4,categoryNiv3,categoryNiv2,categoryNiv1:^((((\d+)\-\d+)\-\d+)\-\d+)$`
	for _, tt := range []struct {
		name  string
		props map[string]string
		in    *record.Record
		want  string
	}{
		{"hostname from referer", map[string]string{"referer": `referer_hostname:https?\:\/\/([^\/]+)\/?.*`},
			rec("referer", "https://www.example.com/shop?q=1"),
			`referer="https://www.example.com/shop?q=1" referer_hostname="www.example.com"`},
		{"unmatched group leaves its field alone", map[string]string{"location": location},
			rec("location", "https://fr.shop.example.com/fr/cart"),
			`location="https://fr.shop.example.com/fr/cart" webshop="fr.shop.example.com" countryCode="fr"`},
		{"nested groups", map[string]string{"Class": class4},
			rec("Class", "12-34-56-78"),
			`Class="12-34-56-78" categoryNiv4="12-34-56-78" categoryNiv3="12-34-56" categoryNiv2="12-34" categoryNiv1="12"`},
		{"match at the start only, not the whole text", map[string]string{"alert_match_name": `spamOrigin:(not_spam).*`},
			rec("alert_match_name", "not_spam_12"),
			`alert_match_name="not_spam_12" spamOrigin="not_spam"`},
		{"no match in the middle", map[string]string{"alert_match_name": `spamOrigin:(not_spam).*`},
			rec("alert_match_name", "is_not_spam"),
			`alert_match_name="is_not_spam"`},
		{"double quotes removed", map[string]string{"v": `q:(.*)`},
			rec("v", `say "hi"`),
			`v="say \"hi\"" q="say hi"`},
		{"kept by default", map[string]string{"v": `a:(\w+)`},
			rec("v", "new", "a", "old"),
			`v="new" a="old"`},
		{"overwrite", map[string]string{"v": `a:(\w+)`, "conflict.resolution.policy": "overwrite_existing"},
			rec("v", "new", "a", "old"),
			`v="new" a="new"`},
		{"empty target is filled", map[string]string{"v": `a:(\w+)`},
			rec("v", "new", "a", ""),
			`v="new" a="new"`},
		{"more fields than groups", map[string]string{"v": `a,b,c:(\w+)`},
			rec("v", "x"),
			`v="x" a="x"`},
		{"number source as text", map[string]string{"n": `digit:(\d)`},
			rec("n", 42),
			`n=42 digit="4"`},
		// Bad input: the record goes on unchanged, nothing is lost.
		{"absent source", map[string]string{"v": `a:(\w+)`}, rec("w", "x"), `w="x"`},
		{"empty source", map[string]string{"v": `a:(\w+)`}, rec("v", ""), `v=""`},
		{"null source", map[string]string{"v": `a:(\w+)`}, rec("v", nil), `v=null`},
		{"no match", map[string]string{"Class": class4}, rec("Class", "not a class"), `Class="not a class"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, _ := build(t, fields.ApplyRegexpSpec(), tt.props)
			out := process(t, p, tt.in)
			if len(out) != 1 {
				t.Fatalf("got %d records, want 1", len(out))
			}
			if got := userFields(out[0]); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
			if out[0].HasErrors() {
				t.Errorf("errors: %v", out[0].Errors())
			}
		})
	}
}

func TestApplyRegexpRefusesBadRules(t *testing.T) {
	for props, want := range map[string]string{
		`no colon`:    "is not FIELD1,FIELD2,...:REGEX",
		`:(\w+)`:      "is not FIELD1,FIELD2,...:REGEX",
		`a:(unclosed`: "invalid regular expression",
		`a:(?=ahead)`: "invalid regular expression",
	} {
		got := buildErr(t, fields.ApplyRegexpSpec(), map[string]string{"src": props})
		if !strings.Contains(got, want) || !strings.Contains(got, `"src"`) {
			t.Errorf("%q: got %q, want the key and %q", props, got, want)
		}
	}
}
