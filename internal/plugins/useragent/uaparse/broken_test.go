package uaparse

import (
	"strings"
	"testing"
)

// TestNoPanicOnBrokenForms runs the rules without the safety net of
// analyzeSafe, which would hide a panic behind an all-Unknown answer, over
// every golden input and the broken forms of it that the repair rules act
// on: spaces lost, spaces percent-encoded, padded with runs of spaces.
func TestNoPanicOnBrokenForms(t *testing.T) {
	extra := []string{"%20%20", "%20%20%20", "+(+(+(", "@", "%", "%2", "%2F", "x_64", "( x1_64)", "(_64)",
		"Android/", "Android//", "safari/1a", "(Windows NT 9.0", "Mozilla/5.0 (Windows NT 9_0) WebKit/1 Safari/1",
		"a@b Mozilla/5.0", "Instagram1.", "%41/", "%e3%82/1", "(screen size", "(null)", "Mozilla/5.0 Firefox/"}
	n := 0
	for _, uas := range goldenInputs(t) {
		for _, u := range append(uas, extra...) {
			if len(u) > maxLength {
				continue
			}
			for _, v := range []string{u, strings.ReplaceAll(u, " ", ""), strings.ReplaceAll(u, " ", "%20"),
				strings.ReplaceAll(u, " ", "   ")} {
				n++
				analyzeUnguarded(t, v)
			}
		}
	}
	t.Logf("%d inputs", n)
}

// TestNoPanicOnCutForms runs the rules without the safety net over every
// DEV user agent cut before and after each separator (" /;()"), the shapes
// in which a name or version goes missing: "/5.0 (compatible; Googlebot/2.1)"
// is a product without a name.
func TestNoPanicOnCutForms(t *testing.T) {
	n := 0
	for _, c := range loadDev(t) {
		u := c.UA
		for i := 0; i < len(u); i++ {
			if !strings.ContainsRune(" /;()", rune(u[i])) {
				continue
			}
			for _, v := range []string{u[:i], u[i:], u[i+1:]} {
				n++
				analyzeUnguarded(t, v)
			}
		}
	}
	t.Logf("%d inputs", n)
}

// analyzeUnguarded runs the rules on ua without analyzeSafe and reports a
// panic as a test error.
func analyzeUnguarded(t *testing.T, ua string) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("panic %v on %q", r, ua)
		}
	}()
	analyze(ua)
}

// TestHasThreeSpaces compares the search of every third byte with
// strings.Contains on every string of up to eighteen bytes of spaces and
// other bytes (a tab, 0xa0: bytes close to a space), so every run at every
// offset, at the start and at the end.
func TestHasThreeSpaces(t *testing.T) {
	for n := 0; n <= 18; n++ {
		for m := 0; m < 1<<n; m++ {
			b := make([]byte, n)
			for i := range b {
				b[i] = "a\t\xa0!"[i%4]
				if m&(1<<i) != 0 {
					b[i] = ' '
				}
			}
			s := string(b)
			if got, want := hasThreeSpaces(s), strings.Contains(s, "   "); got != want {
				t.Fatalf("hasThreeSpaces(%q) = %v, want %v", s, got, want)
			}
		}
	}
}

// TestIndexUnderscoreHash compares indexUnderscoreHash with
// strings.Index on every string of up to seven bytes of '_', '#' and a
// letter.
func TestIndexUnderscoreHash(t *testing.T) {
	const alphabet = "_#a"
	for n := 0; n <= 7; n++ {
		total := 1
		for i := 0; i < n; i++ {
			total *= len(alphabet)
		}
		for m := 0; m < total; m++ {
			b := make([]byte, n)
			for i, r := 0, m; i < n; i, r = i+1, r/len(alphabet) {
				b[i] = alphabet[r%len(alphabet)]
			}
			s := string(b)
			if got, want := indexUnderscoreHash(s), strings.Index(s, "_#"); got != want {
				t.Fatalf("indexUnderscoreHash(%q) = %d, want %d", s, got, want)
			}
		}
	}
}

func TestRestoreParens(t *testing.T) {
	cases := map[string]string{
		"Mozilla/5.0 Linux; Android 8.1.0; NB76 AppleWebKit/537.36 KHTML, like Gecko Chrome/71.0.3578.99 Mobile Safari/537.36": "Mozilla/5.0 (Linux; Android 8.1.0; NB76) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/71.0.3578.99 Mobile Safari/537.36",
		"Dalvik/2.1.0 Linux; U; Android 5.1.1; SM-G530T Build/LMY47X":                                                          "Dalvik/2.1.0 (Linux; U; Android 5.1.1; SM-G530T Build/LMY47X)",
		// Left as they are: parentheses present, no comment, another product.
		"Mozilla/5.0 (Linux; Android 10) AppleWebKit/537.36": "Mozilla/5.0 (Linux; Android 10) AppleWebKit/537.36",
		"Mozilla/5.0 Chrome/71.0; foo":                       "Mozilla/5.0 Chrome/71.0; foo",
		"curl/8.4.0; a; b":                                   "curl/8.4.0; a; b",
	}
	for in, want := range cases {
		if got := restoreParens(in); got != want {
			t.Errorf("restoreParens(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCompactFields(t *testing.T) {
	r := New(Options{}).Analyze("dv(iPh12,1);pr(UCBrowser/11.3.5.1203);ov(15_2_1);ss(375x812);bt(GJ);pm(0);bv(0);nm(0);im(0);nt(2);")
	for attr, want := range map[string]string{
		"AgentName": "UCBrowser", "AgentVersionMajor": "11", "AgentClass": "Browser", "DeviceClass": "Phone",
		"DeviceBrand": "Apple", "DeviceName": "Apple iPhone", "OperatingSystemName": "iOS", "OperatingSystemVersion": "15.2.1",
	} {
		if got := r.Get(attr); got != want {
			t.Errorf("%s = %q, want %q", attr, got, want)
		}
	}
}
