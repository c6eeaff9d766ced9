package grok_test

import (
	"regexp"
	"testing"

	gogrok "github.com/elastic/go-grok"
	"github.com/elastic/go-grok/patterns"

	"github.com/weir-streams/weir/internal/fastre"
	"github.com/weir-streams/weir/internal/plugins/text/grok"
	"github.com/weir-streams/weir/internal/streamtest"
)

// The benchmarks below match %{COMBINEDAPACHELOG} on the 10,000 real lines
// three ways, to choose between go-grok's expansion and Weir's: go-grok
// itself (its expansion, regexp, a map per line), Weir's expansion on
// regexp, and Weir's expansion on fastre (what SplitText runs).

func benchMatch(b *testing.B, match func(string) bool) {
	lines := streamtest.AccessLogLines(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if !match(lines[i%len(lines)]) && i%len(lines) != 8898 { // line 8899 is cut short
			b.Fatalf("line %d does not match", i%len(lines)+1)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "lines/s")
}

func weirExpansion(b *testing.B) grok.Expansion {
	exp, err := grok.NewLibrary().Expand("%{COMBINEDAPACHELOG}", grok.Options{})
	if err != nil {
		b.Fatal(err)
	}
	return exp
}

func BenchmarkCombinedGoGrok(b *testing.B) {
	g, err := gogrok.NewWithPatterns(patterns.Httpd)
	if err != nil {
		b.Fatal(err)
	}
	if err := g.Compile("%{COMBINEDAPACHELOG}", true); err != nil {
		b.Fatal(err)
	}
	benchMatch(b, func(s string) bool {
		m, err := g.ParseString(s)
		return err == nil && len(m) > 0
	})
}

func BenchmarkCombinedWeirRegexp(b *testing.B) {
	re := regexp.MustCompile(`^(?:` + weirExpansion(b).Regex + `)`)
	benchMatch(b, func(s string) bool { return re.FindStringSubmatchIndex(s) != nil })
}

func BenchmarkCombinedWeirFastre(b *testing.B) {
	m, err := fastre.Compile(`^(?:` + weirExpansion(b).Regex + `)`)
	if err != nil {
		b.Fatal(err)
	}
	idx := make([]int, 0, 64)
	benchMatch(b, func(s string) bool {
		_, ok, _ := m.MatchIndex(s, idx)
		return ok
	})
}
