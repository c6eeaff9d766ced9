package uaparse

import "testing"

func TestWordWindow(t *testing.T) {
	for _, c := range []struct {
		t    string
		w    int
		want string
	}{
		{"linux mips", 0, "linux mips"},
		{"linux mips", 1, "mips"},
		{"linux mips", 2, ""},
		{"netbsd alpha x", 1, "alpha x"},
		{"68k", 0, "68k"},
		{"", 0, ""},
	} {
		if got := wordWindow(c.t, c.w); got != c.want {
			t.Errorf("wordWindow(%q, %d) = %q, want %q", c.t, c.w, got, c.want)
		}
	}
}

// TestCPUWords shows rows of tables/cpu_words.tsv (Yauaa's
// CPUArchitectures lookup) naming the processor where tables/cpu.tsv
// finds none, on user agents written for the test, and a processor of
// tables/cpu.tsv that they do not undo.
func TestCPUWords(t *testing.T) {
	for _, c := range []struct{ ua, want string }{
		{"Opera/9.80 (Linux mips; U; en) Presto/2.12.407 Version/12.50", "Mips"},
		{"Opera/9.80 (Linux sh4; U; de) Presto/2.12.407 Version/12.50", "SH4"},
		{"Mozilla/5.0 (X11; NetBSD alpha; rv:52.0) Gecko/20100101 Firefox/52.0", "Alpha"},
		{"Mozilla/5.0 (X11; Linux x86; rv:52.0) Gecko/20100101 Firefox/52.0", "x86"},
		{"ExamplePlayer/2.0 (Linux; Android 9) Sys_CPU/armv7l", "ARMv7l"},
		{"Mozilla/5.0 (68K) AppleWebKit/537.36 (KHTML, like Gecko)", "Motorola 68000"},
		// A two-word window that is not a tag, and no word alone
		// before the last: "x86" here is not read.
		{"Mozilla/5.0 (Linux x86 build; U; en) Presto/2.12.407 Version/12.50", "Unknown"},
		// tables/cpu.tsv answers first.
		{"Mozilla/5.0 (X11; Linux x86_64; rv:109.0) Gecko/20100101 Firefox/115.0", "Intel x86_64"},
	} {
		if got := New(Options{}).Analyze(c.ua).Get("DeviceCpu"); got != c.want {
			t.Errorf("DeviceCpu of %q = %q, want %q", c.ua, got, c.want)
		}
	}
}
