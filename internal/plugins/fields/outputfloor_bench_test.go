package fields_test

import (
	"context"
	"strconv"
	"testing"
	"unsafe"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/record"
)

// BenchmarkHashOutputFloor measures, in BenchmarkProcessors' harness (the
// same records, batches, Cold and Hot settings and Restore line), the
// parts of ModifyId's and MaskFields' work that are not the hash, each
// alone, so that their sum with the hash's own cost (BenchmarkHashFloor)
// shows the floor of those processors:
//
//   - Restore: the five fields set back, nothing else (as in
//     BenchmarkProcessors).
//   - Read3: ModifyId's reading: src_ip, record_time and http_query found
//     (by position hint) and their text appended to a reused buffer.
//   - Id64: the output every hashed value needs and nothing else: one
//     64-byte hex string per record, cut from one allocation per batch,
//     written and set as the record's id. It allocates what ModifyId and
//     MaskFields must (64 bytes a record), so it also carries the garbage
//     collector's cost of that allocation, which the Restore line, which
//     allocates nothing, does not.
//   - Id64Field: the same string set as http_query's value instead (what
//     MaskFields does).
//   - Id64NoSet: the allocation and the writing of Id64 without setting
//     the ids (only the batch's first record takes one, so that the
//     string is used).
func BenchmarkHashOutputFloor(b *testing.B) {
	recs, restore := kitBenchRecords(b)
	for _, name := range []string{"Restore", "Read3", "Id64", "Id64Field", "Id64NoSet"} {
		benchColdHot(b, name, recs, restore, func(*testing.B) component.Processor {
			return &outputFloor{what: name}
		}, nil)
	}
}

// outputFloor is BenchmarkHashOutputFloor's processor: it does one part of
// the hashing processors' work, named by what.
type outputFloor struct {
	what string
	data []byte
}

const floorHex = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

func (p *outputFloor) Process(_ context.Context, b *component.Batch) error {
	switch p.what {
	case "Read3":
		hints := [3]int{-1, -1, -1}
		p.data = p.data[:0]
		for _, r := range b.Records {
			for i, f := range [3]string{"src_ip", record.FieldTime, "http_query"} {
				if v, at, ok := r.GetHint(f, hints[i]); ok {
					hints[i] = at
					switch v.Kind() {
					case record.String:
						s, _ := v.AsString()
						p.data = append(p.data, s...)
					case record.Int:
						n, _ := v.AsInt()
						p.data = strconv.AppendInt(p.data, n, 10)
					}
				}
			}
		}
	case "Id64", "Id64Field", "Id64NoSet":
		const n = len(floorHex)
		if len(b.Records) == 0 {
			return nil
		}
		buf := make([][n]byte, len(b.Records))
		for i := range buf {
			copy(buf[i][:], floorHex)
		}
		if p.what == "Id64NoSet" {
			b.Records[0].SetID(unsafe.String(&buf[0][0], n))
			return nil
		}
		all := unsafe.String(&buf[0][0], len(buf)*n)
		at := -1
		for i, r := range b.Records {
			if p.what != "Id64Field" {
				r.SetID(all[i*n : (i+1)*n])
			} else {
				at = r.SetHint("http_query", record.StringValue(all[i*n:(i+1)*n]), at)
			}
		}
	}
	return nil
}
