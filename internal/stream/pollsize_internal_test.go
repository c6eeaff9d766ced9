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
		want  int
	}{
		{"no records", nil, maxPollRecords},
		{"log lines of 236 bytes", []polledPartition{part(100, 236), part(50, 236)}, maxPollRecords},
		{"1 KiB values", []polledPartition{part(10, 1024)}, pollBytes / 1025},
		{"2 KiB values", []polledPartition{part(10, 2048)}, pollBytes / 2049},
		{"4 KiB values: the floor", []polledPartition{part(10, 4096)}, minPollRecords},
		{"10 KiB values: the floor", []polledPartition{part(10, 10240)}, minPollRecords},
		{"1 MiB values", []polledPartition{part(2, 1<<20)}, minPollRecords},
	} {
		if got := nextPollRecords(c.parts); got != c.want {
			t.Errorf("%s: next poll takes %d records, want %d", c.name, got, c.want)
		}
	}
}
