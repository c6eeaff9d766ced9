package sha256block

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"math/rand/v2"
	"testing"
)

// forEachImpl runs f once with each block function this CPU supports
// (the generic one always), so that every path is compared with the
// standard library, not only the one the CPU picks.
func forEachImpl(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	impls := oneBlockImpls()
	t.Logf("block functions on this CPU: %v (in use: %v)", supported(), Using())
	saved := impl
	t.Cleanup(func() { impl = saved })
	for _, i := range impls {
		t.Run(i.String(), func(t *testing.T) {
			impl = i
			defer func() { impl = saved }()
			f(t)
		})
	}
}

// oneBlockImpls lists the one-block functions this CPU supports: all but
// AVX512x16.
func oneBlockImpls() []Impl {
	var impls []Impl
	for _, i := range supported() {
		if i != AVX512x16 {
			impls = append(impls, i)
		}
	}
	return impls
}

// wideImpls lists the 16-lane functions: AVX512x16 if the CPU has it, and
// the generic one (each lane in turn) always.
func wideImpls() []Impl {
	if supported()[0] == AVX512x16 {
		return []Impl{AVX512x16, Generic}
	}
	return []Impl{Generic}
}

// lengths are the message lengths at the edges of SHA-256's padding (55,
// 56, 63, 64: one block or two) and of the assembly's 64 KiB pieces.
var lengths = []int{0, 1, 3, 31, 32, 33, 55, 56, 57, 63, 64, 65, 100, 119, 120, 127, 128, 129, 191, 192, 1000,
	maxAsmSize - 1, maxAsmSize, maxAsmSize + 1, 2*maxAsmSize + 77}

// randomBytes returns n bytes of r.
func randomBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

func newRand(t *testing.T) *rand.Rand {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	return rand.New(rand.NewPCG(seed, 1))
}

func TestSum256IsCryptoSHA256(t *testing.T) {
	forEachImpl(t, func(t *testing.T) {
		r := newRand(t)
		var prev []byte
		check := func(data []byte) {
			t.Helper()
			want := sha256.Sum256(data)
			if got := Sum256(data); got != want {
				t.Fatalf("Sum256 of %d bytes = %x, crypto/sha256 gives %x", len(data), got, want)
			}
			// Pairs of this message and the previous one, both ways.
			wantPrev := sha256.Sum256(prev)
			if s, p := Sum256Pair(data, prev); s.Bytes() != want || p.Bytes() != wantPrev {
				t.Fatalf("Sum256Pair of %d and %d bytes = %x, %x; crypto/sha256 gives %x, %x", len(data), len(prev), s.Bytes(), p.Bytes(), want, wantPrev)
			}
			if p, s := Sum256Pair(prev, data); s.Bytes() != want || p.Bytes() != wantPrev {
				t.Fatalf("Sum256Pair of %d and %d bytes = %x, %x; crypto/sha256 gives %x, %x", len(prev), len(data), p.Bytes(), s.Bytes(), wantPrev, want)
			}
			prev = data
		}
		for _, n := range lengths {
			check(randomBytes(r, n))
		}
		for n := 0; n <= 300; n++ {
			check(randomBytes(r, n))
		}
		check([]byte("abc")) // FIPS 180-4's example, with its known digest below
		if got := Sum256([]byte("abc")); hex.EncodeToString(got[:]) != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
			t.Fatalf("Sum256(abc) = %x", got)
		}
	})
}

func TestBlockIsGeneric(t *testing.T) {
	forEachImpl(t, func(t *testing.T) {
		r := newRand(t)
		for _, blocks := range []int{0, 1, 2, 3, 17, 1025} {
			data := randomBytes(r, blocks*BlockSize+r.IntN(BlockSize))
			start := State{}
			for i := range start {
				start[i] = r.Uint32()
			}
			got, want := start, start
			Block(&got, data)
			blockGeneric(&want, data[:len(data)&^(BlockSize-1)])
			if got != want {
				t.Fatalf("%d blocks: state %x, generic %x", blocks, got, want)
			}
		}
	})
}

func TestHMACIsCryptoHMAC(t *testing.T) {
	forEachImpl(t, func(t *testing.T) {
		r := newRand(t)
		for _, keyLen := range []int{0, 1, 16, 22, 63, 64, 65, 100, 200} {
			key := randomBytes(r, keyLen)
			m := NewHMAC(key)
			std := hmac.New(sha256.New, key)
			var prev, prevWant []byte
			check := func(text []byte) {
				t.Helper()
				std.Reset()
				std.Write(text)
				want := std.Sum(nil)
				if prevWant != nil {
					a, b := m.AppendHexPair([]byte("a"), []byte("b"), string(text), string(prev))
					if string(a) != "a"+hex.EncodeToString(want) || string(b) != "b"+hex.EncodeToString(prevWant) {
						t.Fatalf("key of %d bytes, texts of %d and %d: AppendHexPair %q, %q; want a%x, b%x", keyLen, len(text), len(prev), a, b, want, prevWant)
					}
				}
				prev, prevWant = text, want
				if got := m.Sum(string(text)); !bytes.Equal(got[:], want) {
					t.Fatalf("key of %d bytes, text of %d: Sum %x, crypto/hmac %x", keyLen, len(text), got, want)
				}
				prefix := []byte("token:")
				if got := m.AppendHex(prefix, string(text)); string(got) != "token:"+hex.EncodeToString(want) {
					t.Fatalf("key of %d bytes, text of %d: AppendHex %q, want token:%x", keyLen, len(text), got, want)
				}
			}
			for _, n := range lengths {
				check(randomBytes(r, n))
			}
			for n := 0; n <= 300; n++ {
				check(randomBytes(r, n))
			}
		}
	})
}

// TestHMACRFC4231 checks test case 2 of RFC 4231 (a key shorter than the
// block) against the digest the RFC prints.
func TestHMACRFC4231(t *testing.T) {
	forEachImpl(t, func(t *testing.T) {
		got := NewHMAC([]byte("Jefe")).AppendHex(nil, "what do ya want for nothing?")
		if want := "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"; string(got) != want {
			t.Fatalf("HMAC = %s, RFC 4231 gives %s", got, want)
		}
	})
}

func TestNoAllocations(t *testing.T) {
	m := NewHMAC([]byte("0123456789abcdef"))
	buf := make([]byte, 0, 2*Size)
	data := []byte("83.149.9.216|17/May/2015:10:05:03 +0000|/presentations/logstash-monitorama-2013/images/kibana-search.png")
	if n := testing.AllocsPerRun(100, func() {
		buf = m.AppendHex(buf[:0], "83.149.9.216")
		_ = Sum256(data)
		_, _ = m.AppendHexPair(buf[:0], buf[:0], "83.149.9.216", "10.0.0.1")
		_, _ = Sum256Pair(data, data[:10])
	}); n != 0 {
		t.Fatalf("AppendHex and Sum256 allocate %v times per call, want 0", n)
	}
}

// FuzzHMACAndSum256 compares HMAC and Sum256 (alone and in pairs) with crypto/hmac and
// crypto/sha256 on any key and text, with every block function.
func FuzzHMACAndSum256(f *testing.F) {
	f.Add([]byte("0123456789abcdef"), []byte("83.149.9.216"))
	f.Add([]byte("Jefe"), []byte("what do ya want for nothing?"))
	f.Add(bytes.Repeat([]byte{0xaa}, 131), bytes.Repeat([]byte("x"), 119))
	f.Fuzz(func(t *testing.T, key, text []byte) {
		std := hmac.New(sha256.New, key)
		std.Write(text)
		want := std.Sum(nil)
		wantSum := sha256.Sum256(text)
		saved := impl
		defer func() { impl = saved }()
		for _, i := range oneBlockImpls() {
			impl = i
			if got := NewHMAC(key).Sum(string(text)); !bytes.Equal(got[:], want) {
				t.Fatalf("%v: HMAC %x, crypto/hmac %x", i, got, want)
			}
			if got := Sum256(text); got != wantSum {
				t.Fatalf("%v: Sum256 %x, crypto/sha256 %x", i, got, wantSum)
			}
			// Pairs: the text with its first third, each way.
			third := text[:len(text)/3]
			std.Reset()
			std.Write(third)
			wantThird := std.Sum(nil)
			a, b := NewHMAC(key).AppendHexPair(nil, nil, string(text), string(third))
			if string(a) != hex.EncodeToString(want) || string(b) != hex.EncodeToString(wantThird) {
				t.Fatalf("%v: AppendHexPair %s, %s; crypto/hmac %x, %x", i, a, b, want, wantThird)
			}
			if s, p := Sum256Pair(third, text); s.Bytes() != sha256.Sum256(third) || p.Bytes() != wantSum {
				t.Fatalf("%v: Sum256Pair %x, %x; crypto/sha256 %x, %x", i, s.Bytes(), p.Bytes(), sha256.Sum256(third), wantSum)
			}
		}
		// HexMany over the text's 20 last prefixes (some short, some
		// long), with each 16-lane function.
		var texts []string
		for n := max(0, len(text)-19); n <= len(text); n++ {
			texts = append(texts, string(text[:n]))
		}
		saved16 := impl16
		defer func() { impl16 = saved16 }()
		for _, i := range wideImpls() {
			impl16 = i
			out := make([][2 * Size]byte, len(texts))
			NewHMAC(key).HexMany(texts, out)
			for k, x := range texts {
				std.Reset()
				std.Write([]byte(x))
				if want := hex.EncodeToString(std.Sum(nil)); string(out[k][:]) != want {
					t.Fatalf("%v: HexMany of text %d (%d bytes) %s, crypto/hmac %s", i, k, len(x), out[k][:], want)
				}
			}
		}
	})
}

func TestBlock16IsBlock(t *testing.T) {
	r := newRand(t)
	saved := impl16
	t.Cleanup(func() { impl16 = saved })
	for _, i := range wideImpls() {
		var st, want [8][16]uint32
		var w [16][16]uint32
		for k := range st {
			for j := range st[k] {
				st[k][j] = r.Uint32()
			}
		}
		for k := range w {
			for j := range w[k] {
				w[k][j] = r.Uint32()
			}
		}
		want = st
		for j := 0; j < 16; j++ {
			var s State
			var blk [BlockSize]byte
			for k := range s {
				s[k] = want[k][j]
			}
			for k := 0; k < 16; k++ {
				blk[4*k], blk[4*k+1], blk[4*k+2], blk[4*k+3] = byte(w[k][j]>>24), byte(w[k][j]>>16), byte(w[k][j]>>8), byte(w[k][j])
			}
			blockGeneric(&s, blk[:])
			for k := range s {
				want[k][j] = s[k]
			}
		}
		block16With(i, &st, &w)
		if st != want {
			t.Fatalf("%v: 16 lanes %x, generic %x", i, st, want)
		}
	}
}

// TestHexManyIsCryptoHMAC hashes sets of 0 to 40 texts of random lengths
// (most short enough for one inner block, some up to five), so that
// groups of 16 lanes of each block count come full, partial and too small
// to use, with each 16-lane
// function and each one-block function.
func TestHexManyIsCryptoHMAC(t *testing.T) {
	saved := impl16
	t.Cleanup(func() { impl16 = saved })
	for _, wide := range wideImpls() {
		impl16 = wide
		t.Run(wide.String(), func(t *testing.T) {
			forEachImpl(t, func(t *testing.T) {
				r := newRand(t)
				key := randomBytes(r, 22)
				m := NewHMAC(key)
				std := hmac.New(sha256.New, key)
				for n := 0; n <= 40; n++ {
					texts := make([]string, n)
					for k := range texts {
						l := r.IntN(56)
						switch {
						case n%2 == 1: // every text past one inner block
							l = 56 + r.IntN(200)
						case r.IntN(3) == 0:
							l = r.IntN(300) // up to five inner blocks
						}
						texts[k] = string(randomBytes(r, l))
					}
					out := make([][2 * Size]byte, n)
					m.HexMany(texts, out)
					for k, x := range texts {
						std.Reset()
						std.Write([]byte(x))
						if want := hex.EncodeToString(std.Sum(nil)); string(out[k][:]) != want {
							t.Fatalf("%d texts, text %d (%d bytes): %s, crypto/hmac %s", n, k, len(x), out[k][:], want)
						}
					}
				}
			})
		})
	}
}

// TestHexMany256IsCryptoSHA256 is TestHexManyIsCryptoHMAC for SHA-256.
func TestHexMany256IsCryptoSHA256(t *testing.T) {
	saved := impl16
	t.Cleanup(func() { impl16 = saved })
	for _, wide := range wideImpls() {
		impl16 = wide
		t.Run(wide.String(), func(t *testing.T) {
			forEachImpl(t, func(t *testing.T) {
				r := newRand(t)
				for n := 0; n <= 40; n++ {
					msgs := make([][]byte, n)
					for k := range msgs {
						l := r.IntN(120)
						switch {
						case n%2 == 1:
							l = 56 + r.IntN(256)
						case r.IntN(3) == 0:
							l = r.IntN(400) // up to seven blocks
						}
						msgs[k] = randomBytes(r, l)
					}
					out := make([][2 * Size]byte, n)
					HexMany256(msgs, out)
					for k, x := range msgs {
						if want := sha256.Sum256(x); string(out[k][:]) != hex.EncodeToString(want[:]) {
							t.Fatalf("%d messages, message %d (%d bytes): %s, crypto/sha256 %x", n, k, len(x), out[k][:], want)
						}
					}
				}
			})
		})
	}
}
