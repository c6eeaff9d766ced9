package sha256block

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"syscall"
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
			loop(b, 1, func() { buf = m.AppendHex(buf[:0], text) })
		})
		b.Run("sha256block-pair/"+name, func(b *testing.B) {
			m := NewHMAC(key)
			bufA, bufB := make([]byte, 0, 2*Size), make([]byte, 0, 2*Size)
			loop(b, 2, func() { bufA, bufB = m.AppendHexPair(bufA[:0], bufB[:0], text, text) })
		})
		b.Run("crypto-hmac/"+name, func(b *testing.B) {
			m := hmac.New(sha256.New, key)
			var sum [Size]byte
			var out [2 * Size]byte
			in := []byte(text)
			loop(b, 1, func() {
				m.Reset()
				m.Write(in)
				hex.Encode(out[:], m.Sum(sum[:0]))
			})
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
			loop(b, 1, func() { _ = Sum256(data) })
		})
		b.Run("sha256block-pair/"+strconv.Itoa(n)+"bytes", func(b *testing.B) {
			loop(b, 2, func() { _, _ = Sum256Pair(data, data) })
		})
		b.Run("crypto-sha256/"+strconv.Itoa(n)+"bytes", func(b *testing.B) {
			loop(b, 1, func() { _ = sha256.Sum256(data) })
		})
	}
	for _, i := range wideImpls() {
		b.Run("block16/"+i.String(), func(b *testing.B) {
			st := [8][16]uint32{}
			var blocks [16][BlockSize]byte
			loop(b, 16, func() { block16BytesWith(i, &st, &blocks) })
		})
	}
	for _, i := range oneBlockImpls() {
		for _, blocks := range []int{1, 2, 16} {
			b.Run("block/"+i.String()+"/"+strconv.Itoa(blocks)+"blocks", func(b *testing.B) {
				data := make([]byte, blocks*BlockSize)
				s := Init
				loop(b, 1, func() { blockWith(i, &s, data) })
			})
		}
	}
}

// cpuTime returns the CPU time (user and system) the process has used, in
// nanoseconds.
func cpuTime(b *testing.B) int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// loop runs f until the benchmark ends and reports the process's CPU time
// per value (f hashes perCall values): on the shared development machine
// wall time measures the other processes as much as this code.
func loop(b *testing.B, perCall int, f func()) {
	start := cpuTime(b)
	for b.Loop() {
		f()
	}
	b.ReportMetric(float64(cpuTime(b)-start)/float64(perCall*b.N), "cpu-ns/value")
}

// BenchmarkHMACMany measures HexMany on 512 IPv4 addresses (16 lanes at a
// time where the CPU has AVX-512) against AppendHexPair over the same
// values, per value.
func BenchmarkHMACMany(b *testing.B) {
	m := NewHMAC([]byte("0123456789abcdef-bench"))
	texts := make([]string, 512)
	for i := range texts {
		texts[i] = "83.149." + strconv.Itoa(i/256) + "." + strconv.Itoa(i%256)
	}
	out := make([][2 * Size]byte, len(texts))
	b.Run("HexMany", func(b *testing.B) {
		loop(b, len(texts), func() { m.HexMany(texts, out) })
	})
	// Paths of 56 to 119 bytes: two inner blocks each.
	paths := make([]string, len(texts))
	for i := range paths {
		paths[i] = "/presentations/logstash-monitorama-2013/images/" + strconv.Itoa(i) + "-kibana-dashboard.png?" + texts[i]
	}
	b.Run("HexMany/paths", func(b *testing.B) {
		loop(b, len(paths), func() { m.HexMany(paths, out) })
	})
	// ModifyId's texts: address, time in milliseconds and path, 76 to 94
	// bytes (two blocks).
	msgs := make([][]byte, len(texts))
	for i := range msgs {
		msgs[i] = []byte(texts[i] + "1431857103000" + paths[i][:50+i%8])
	}
	b.Run("HexMany256", func(b *testing.B) {
		loop(b, len(msgs), func() { HexMany256(msgs, out) })
	})
	b.Run("AppendHexPair", func(b *testing.B) {
		loop(b, len(texts), func() {
			for i := 0; i < len(texts); i += 2 {
				m.AppendHexPair(out[i][:0], out[i+1][:0], texts[i], texts[i+1])
			}
		})
	})
}
