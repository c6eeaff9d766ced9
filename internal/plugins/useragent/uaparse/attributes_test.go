package uaparse

import (
	"strings"
	"testing"
)

// TestPackLayouts checks both layouts of a Result: the narrow one every real
// answer takes, and the wide one for text of 64 KiB or more, with Unknown,
// empty values (also last) and values of every length around the limits of
// pack's word copies (4, 8 and 16 bytes), with bytes that differ, so that a
// word written to the wrong place shows.
func TestPackLayouts(t *testing.T) {
	for _, tc := range []struct {
		name string
		size int // bytes of text in all
		wide bool
	}{
		{"narrow", 2000, false},
		{"narrow at the limit", 0xffff, false},
		{"wide at the limit", 0x10000, true},
		{"wide", 53 * 2048, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var v [numAttributes]string
			for i := range v {
				switch i % 6 {
				case 0:
					v[i] = Unknown
				case 1:
					v[i] = ""
				case 2:
					v[i] = string(rune('a' + i%26))
				default:
					v[i] = "0123456789abcdefgh"[:i%18] + "."
				}
			}
			v[numAttributes-1] = ""
			size := 0
			for _, s := range v {
				if s != Unknown {
					size += len(s)
				}
			}
			// The values of one letter take what is left to the size.
			for i := 2; size < tc.size; i += 6 {
				n := min(tc.size-size, 4096)
				v[i] += strings.Repeat(v[i][:1], n)
				size += n
				if i+6 >= numAttributes {
					i = -4
				}
			}
			r := pack(&v)
			if got := *(*uint64)(r.p)&wideBit != 0; got != tc.wide {
				t.Fatalf("text of %d bytes: wide layout %v, want %v", size, got, tc.wide)
			}
			for i := range v {
				if got := r.value(i); got != v[i] {
					t.Errorf("value %d (%s): %.20q (%d bytes), want %.20q (%d bytes)", i, attributeNames[i], got, len(got), v[i], len(v[i]))
				}
			}
		})
	}
	var u [numAttributes]string
	for i := range u {
		u[i] = Unknown
	}
	r := pack(&u)
	for i := range u {
		if got := r.value(i); got != Unknown {
			t.Errorf("all Unknown: value %d is %q", i, got)
		}
	}
	if got := (Result{}).value(attrAgentName); got != Unknown {
		t.Errorf("zero Result: %q, want Unknown", got)
	}
}
