package fields_test

import (
	"strings"
	"testing"

	"github.com/weir-streams/weir/internal/plugins/fields"
	"github.com/weir-streams/weir/internal/record"
)

func TestURLDecoder(t *testing.T) {
	for _, tt := range []struct {
		name, charset string
		in            any
		want          string
	}{
		{"utf-8", "UTF-8", "https://shop.example.com/search?text=caf%C3%A9+cr%C3%A8me", `"https://shop.example.com/search?text=café crème"`},
		{"plus is a space", "UTF-8", "a+b", `"a b"`},
		{"lower-case hex", "UTF-8", "%c3%a9", `"é"`},
		{"latin-1", "ISO-8859-1", "caf%E9", `"café"`},
		{"charset any case", "utf-8", "%41", `"A"`},
		{"ascii", "US-ASCII", "%41%E9", `"A` + "\uFFFD" + `"`},
		{"nothing to decode", "UTF-8", "plain", `"plain"`},
		{"number left alone", "UTF-8", 42, `42`},
		// Bad input: decoded as LogIsland's second try does, nothing lost.
		{"lone percent", "UTF-8", "100% sure%2", `"100% sure%2"`},
		{"percent then non-hex", "UTF-8", "%zz%41", `"%zzA"`},
		{"invalid utf-8", "UTF-8", "%E9t%C3%A9", `"` + "\uFFFD" + `té"`},
		{"truncated sequence", "UTF-8", "%C3", `"` + "\uFFFD" + `"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, _ := build(t, fields.URLDecoderSpec(), map[string]string{"decode.fields": "u, missing", "charset": tt.charset})
			out := process(t, p, rec("u", tt.in, "other", "a%20b"))
			if len(out) != 1 || out[0].HasErrors() {
				t.Fatalf("got %v", out)
			}
			v, _ := out[0].Get("u")
			if v.String() != tt.want {
				t.Errorf("got %s, want %s", v.String(), tt.want)
			}
			if o, _ := out[0].GetString("other"); o != "a%20b" {
				t.Errorf("a field not listed was decoded: %q", o)
			}
			if out[0].Has("missing") {
				t.Error("an absent field was created")
			}
		})
	}
	if got := buildErr(t, fields.URLDecoderSpec(), map[string]string{"decode.fields": "u", "charset": "EBCDIC"}); !strings.Contains(got, "charset") {
		t.Errorf("bad charset: %s", got)
	}
	buildErr(t, fields.URLDecoderSpec(), map[string]string{})
	_ = record.FieldValue
}
