package fastre

import (
	"math/rand"
	"regexp/syntax"
	"testing"
)

// TestWordStop checks the word-at-a-time scan of class repetitions against
// the byte table: from every start, every byte it steps over is in the
// class as an ASCII byte (table entry 1), and it never stops past the first
// byte that is not. Inputs are random strings over the class's stop bytes,
// bytes next to them, control characters and bytes >= 0x80, so that stops
// fall at every position of an eight-byte word.
func TestWordStop(t *testing.T) {
	patterns := map[string]bool{ // pattern: whether it must have the word test
		`\S`: true, `[^"]`: true, `[^"\\]`: true, `[^ab]`: true, `[^\x00-\x20]`: true, `[^\s"]`: true,
		`.`: true, `[^abc]`: false, `\s`: false, `\w`: false, `\d`: false, `[\w:/]`: false,
	}
	alphabet := []byte{0, 1, 8, 9, 10, 11, 12, 13, 14, 0x1f, 0x20, 0x21, '"', '#', '\\', 'a', 'b', 'c', 'x', 0x7f, 0x80, 0xc3, 0xa9, 0xff}
	rng := rand.New(rand.NewSource(1))
	for p, want := range patterns {
		re, err := syntax.Parse(p, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		cl := classOf(re)
		if cl.wordStop != want {
			t.Fatalf("%s: wordStop %v, want %v", p, cl.wordStop, want)
		}
		if !cl.wordStop {
			continue
		}
		for n := 0; n < 3000; n++ {
			b := make([]byte, rng.Intn(40))
			for i := range b {
				// Mostly bytes of the class, so that runs are long.
				if rng.Intn(4) == 0 {
					b[i] = alphabet[rng.Intn(len(alphabet))]
				} else {
					b[i] = 'x'
				}
			}
			s := string(b)
			for start := 0; start <= len(s); start++ {
				got := wordStop(cl, s, start)
				first := start
				for first < len(s) && cl.tbl[s[first]] == 1 {
					first++
				}
				if got < start || got > first {
					t.Fatalf("%s on %q from %d: stopped at %d, first byte outside the table at %d", p, s, start, got, first)
				}
				if first-got >= 8 && got+8 <= len(s) {
					// Only a control character of the class may stop it
					// early.
					if c := s[got]; c > 0x20 {
						t.Fatalf("%s on %q from %d: stopped at %d on %#x, which is in the class", p, s, start, got, c)
					}
				}
			}
		}
	}
}
