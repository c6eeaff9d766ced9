package stream

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"unsafe"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/serialize"
)

// TestLargeRecordsKeepToPooledSlabs sends records that serialize to about
// 25 KB, 2.5 KB and 100 KB through producer.send against a kfake broker.
// Records up to a slab's size must each land whole inside a slab taken
// from the pool: one that outgrew the room left in its slab made append
// copy the slab's earlier records into a grown buffer that no pool keeps,
// which with lines of 10 KB happened every second or third record and took
// about 40 % of the CPU (BENCHMARKS.md, "End to end"). A record
// larger than a slab gets a buffer of its own. Every value handed to the
// client must still hold its own record once the broker has acknowledged
// them all.
func TestLargeRecordsKeepToPooledSlabs(t *testing.T) {
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(1, "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	cl, err := kgo.NewClient(kgo.SeedBrokers(c.ListenAddrs()...), kgo.ProducerBatchMaxBytes(4<<20))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	for _, size := range []int{25 << 10, 2500, 100 << 10} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			p := &producer{cl: cl, ctx: context.Background(), slabs: &blockPool[byte]{}, sents: &blockPool[sent]{}, limit: 4 << 20,
				log: slog.New(slog.DiscardHandler)}
			p.ack = p.acked
			const n = 60
			out := chunkOut{stamp: chunkStamp(), hint: n}
			var values [][]byte
			for i := range n {
				r := record.New(fmt.Sprintf("id-%03d", i), "t", 0)
				r.Set(record.FieldValue, record.StringValue(strings.Repeat(string(rune('a'+i%26)), size)))
				if tooLarge, err := p.send(&out, r, []string{"out"}, serialize.JSON{}, false); err != nil || tooLarge {
					t.Fatalf("send: too large %v, %v", tooLarge, err)
				}
				values = append(values, out.slab[len(out.slab)-out.last+len(r.ID):])
			}
			p.release(&out)
			if err := p.wait(); err != nil {
				t.Fatal(err)
			}
			inSlabs := 0
			for i, v := range values {
				var got struct {
					ID     string            `json:"id"`
					Fields map[string]string `json:"fields"`
				}
				if err := json.Unmarshal(v, &got); err != nil || got.ID != fmt.Sprintf("id-%03d", i) || len(got.Fields[record.FieldValue]) != size {
					t.Fatalf("message %d reads back as id %q with a value of %d bytes (%v)", i, got.ID, len(got.Fields[record.FieldValue]), err)
				}
				if within(v, p.used) {
					inSlabs++
				}
			}
			want := n
			if size > slabSize {
				want = 0
			}
			if inSlabs != want {
				t.Errorf("%d of %d records of %d bytes were serialized inside pooled slabs, want %d", inSlabs, n, size, want)
			}
			p.recycle()
		})
	}
}

// within reports whether b lies inside one of the slabs.
func within(b []byte, slabs [][]byte) bool {
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	for _, s := range slabs {
		base := uintptr(unsafe.Pointer(unsafe.SliceData(s[:1])))
		if lo >= base && lo+uintptr(len(b)) <= base+uintptr(cap(s)) {
			return true
		}
	}
	return false
}
