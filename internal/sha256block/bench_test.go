package sha256block

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"testing"
)

// BenchmarkHMAC compares HMAC.AppendHex with crypto/hmac keyed once and
// reset for each value, its digest hex-encoded (what MaskFields did
// before), on an IPv4 address (one inner block) and texts of 55, 56 and
// 119 bytes (the edges of one, two and three inner blocks).
func BenchmarkHMAC(b *testing.B) {
	key := []byte("0123456789abcdef-bench")
	texts := map[string]string{"ipv4": "83.149.9.216"}
	for _, n := range []int{55, 56, 119, 120} {
		texts[strconv.Itoa(n)+"bytes"] = string(make([]byte, n))
	}
	for _, name := range []string{"ipv4", "55bytes", "56bytes", "119bytes", "120bytes"} {
		text := texts[name]
		b.Run("sha256block/"+name, func(b *testing.B) {
			m := NewHMAC(key)
			buf := make([]byte, 0, 2*Size)
			for b.Loop() {
				buf = m.AppendHex(buf[:0], text)
			}
		})
		b.Run("crypto-hmac/"+name, func(b *testing.B) {
			m := hmac.New(sha256.New, key)
			var sum [Size]byte
			var out [2 * Size]byte
			in := []byte(text)
			for b.Loop() {
				m.Reset()
				m.Write(in)
				hex.Encode(out[:], m.Sum(sum[:0]))
			}
		})
	}
}

// BenchmarkSum256 compares Sum256 with crypto/sha256.Sum256, and measures
// one block function call (64 bytes, no padding) with each
// implementation: the floor per block on this CPU.
func BenchmarkSum256(b *testing.B) {
	for _, n := range []int{32, 55, 56, 119} {
		data := make([]byte, n)
		b.Run("sha256block/"+strconv.Itoa(n)+"bytes", func(b *testing.B) {
			for b.Loop() {
				_ = Sum256(data)
			}
		})
		b.Run("crypto-sha256/"+strconv.Itoa(n)+"bytes", func(b *testing.B) {
			for b.Loop() {
				_ = sha256.Sum256(data)
			}
		})
	}
	for _, i := range supported() {
		for _, blocks := range []int{1, 2, 16} {
			b.Run("block/"+i.String()+"/"+strconv.Itoa(blocks)+"blocks", func(b *testing.B) {
				data := make([]byte, blocks*BlockSize)
				s := Init
				for b.Loop() {
					blockWith(i, &s, data)
				}
			})
		}
	}
}
