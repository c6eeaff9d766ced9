package fields

import (
	"regexp"
	"slices"
	"testing"

	"github.com/weir-streams/weir/internal/record"
)

// TestSplitLiteralIsRegexpSplit: a separator that is a plain literal is cut
// without the regexp engine, and must give exactly what regexp.Split gives,
// for every limit, on edge cases and on access-log paths.
func TestSplitLiteralIsRegexpSplit(t *testing.T) {
	texts := []string{"a", "/", "//", "a/", "/a", "a//b", "/presentations/logstash-monitorama-2013/images/kibana-search.png",
		"/blog/tags/puppet?flav=rss20", "aaa", "aaaa", "a.b.c", "x::y:::z", "é/ü/€", "no separator here", "a,b, c ,d"}
	for _, sep := range []string{"/", `\.`, "aa", "::", ",", "é", `\?`, "a/b"} {
		re := regexp.MustCompile(sep)
		lit, complete := re.LiteralPrefix()
		if !complete || lit == "" {
			t.Fatalf("%q is not a literal to regexp", sep)
		}
		for _, s := range texts {
			for _, limit := range []int{1, 2, 3, 10, 1 << 20} {
				want := re.Split(s, limit)
				var got []string
				for _, v := range splitLiteral(s, lit, limit, new(partsArena)) {
					got = append(got, v.Text())
				}
				if !slices.Equal(got, want) {
					t.Errorf("split %q on %q limit %d = %q, regexp gives %q", s, sep, limit, got, want)
				}
			}
		}
	}
	for _, sep := range []string{`\s*,\s*`, "a|b", "(?i)a", "a+"} {
		if lit, complete := regexp.MustCompile(sep).LiteralPrefix(); complete && lit != "" {
			t.Errorf("%q would be taken for the literal %q", sep, lit)
		}
	}
	v := record.ArrayValue(splitRegexp("a , b,c", regexp.MustCompile(`\s*,\s*`), 10, new(partsArena)))
	if v.String() != `["a","b","c"]` {
		t.Errorf("regexp split = %s", v)
	}
}
