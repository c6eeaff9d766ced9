package stream

import (
	"bytes"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"
)

func TestNextPollRecordsFollowsValueSize(t *testing.T) {
	part := func(n, size int) polledPartition {
		var p polledPartition
		for range n {
			p.Records = append(p.Records, &kgo.Record{Value: bytes.Repeat([]byte("x"), size)})
		}
		return p
	}
	for _, c := range []struct {
		name  string
		parts []polledPartition
		out   int64 // bytes serialized for the poll
		want  int
	}{
		{"no records: the first poll's size", nil, 0, minPollRecords},
		{"log lines of 236 bytes, nothing serialized", []polledPartition{part(100, 236), part(50, 236)}, 0, maxPollRecords},
		{"log lines of 236 bytes parsed to 860 bytes of JSON", []polledPartition{part(100, 236), part(50, 236)}, 150 * 860, maxPollRecords},
		{"log lines enriched to 1.9 KB of JSON", []polledPartition{part(150, 236)}, 150 * 1900, pollOutBytes / 1901},
		{"1 KiB values", []polledPartition{part(10, 1024)}, 0, pollBytes / 1025},
		{"1 KiB values, 8 KiB out: the output bounds", []polledPartition{part(10, 1024)}, 10 * 8192, pollOutBytes / 8193},
		{"2 KiB values", []polledPartition{part(10, 2048)}, 10 * 2048, pollBytes / 2049},
		{"4 KiB values: the floor", []polledPartition{part(10, 4096)}, 0, minPollRecords},
		{"10 KiB values: the floor", []polledPartition{part(10, 10240)}, 10 * 12000, minPollRecords},
		{"1 MiB values", []polledPartition{part(2, 1<<20)}, 0, minPollRecords},
		{"empty values fanned out to 64 KiB each", []polledPartition{part(10, 0)}, 10 << 16, minPollRecords},
	} {
		if got := nextPollRecords(c.parts, c.out); got != c.want {
			t.Errorf("%s: next poll takes %d records, want %d", c.name, got, c.want)
		}
	}
}
