package fields_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"testing"

	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/streamtest"
)

// BenchmarkHashFloor measures what the Go standard library itself costs
// for the hashing MaskFields and ModifyId do, over the same values as
// BenchmarkProcessors (the real access log, Cold: the 10,000 values cycled
// through; Hot: the first 500 again and again), in batches of 500. It is
// the floor those processors cannot go below with their algorithms:
//
//   - HMAC: HMAC-SHA256 of one field's text with crypto/hmac keyed once and
//     reused (Reset keeps the inner and outer states computed from the
//     key), the digest written into a reused array: MaskFields' hash.fields.
//   - HMACToken: the same, plus the hex token as a new string (what
//     MaskFields must produce for each value it hashes).
//   - SHA256: sha256.Sum256 of src_ip, record_time and http_query
//     concatenated (built beforehand, not timed): ModifyId's hashFields.
//
// The machine has SHA-NI, which crypto/sha256 uses.
func BenchmarkHashFloor(b *testing.B) {
	recs := streamtest.AccessLogRecords(b)
	field := func(name string) []string {
		out := make([]string, len(recs))
		for i, r := range recs {
			v, _ := r.Get(name)
			out[i] = v.Text()
		}
		return out
	}
	ids := make([][]byte, len(recs))
	for i, r := range recs {
		for _, f := range []string{"src_ip", record.FieldTime, "http_query"} {
			v, _ := r.Get(f)
			ids[i] = append(ids[i], v.Text()...)
		}
	}
	key := []byte("0123456789abcdef-bench")
	for _, f := range []string{"user", "src_ip", "http_query"} {
		values := field(f)
		for _, token := range []bool{false, true} {
			name := "HMAC/"
			if token {
				name = "HMACToken/"
			}
			for _, set := range []struct {
				name string
				n    int
			}{{"Cold", len(values)}, {"Hot", 500}} {
				b.Run(name+f+"/"+set.name, func(b *testing.B) {
					mac := hmac.New(sha256.New, key)
					var in []byte
					var sum [sha256.Size]byte
					var out [2 * sha256.Size]byte
					var sink string
					streamtest.BenchBatches(b, set.n, 500, func(start, n int) {
						for _, s := range values[start : start+n] {
							mac.Reset()
							in = append(in[:0], s...)
							mac.Write(in)
							mac.Sum(sum[:0])
							if token {
								hex.Encode(out[:], sum[:])
								sink = string(out[:])
							}
						}
					})
					_ = sink
				})
			}
		}
	}
	for _, set := range []struct {
		name string
		n    int
	}{{"Cold", len(ids)}, {"Hot", 500}} {
		b.Run("SHA256/src_ip+record_time+http_query/"+set.name, func(b *testing.B) {
			var sink [sha256.Size]byte
			streamtest.BenchBatches(b, set.n, 500, func(start, n int) {
				for _, data := range ids[start : start+n] {
					sink = sha256.Sum256(data)
				}
			})
			_ = sink
		})
	}
	// One and two SHA-256 blocks: a text of up to 55 bytes is hashed in
	// one (with its padding), up to 119 in two.
	for _, size := range []int{55, 119} {
		b.Run("SHA256/"+strconv.Itoa(size)+"bytes", func(b *testing.B) {
			data := make([]byte, size)
			var sink [sha256.Size]byte
			streamtest.BenchBatches(b, 500, 500, func(_, n int) {
				for i := 0; i < n; i++ {
					sink = sha256.Sum256(data)
				}
			})
			_ = sink
		})
	}
}
