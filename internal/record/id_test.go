package record_test

import (
	"encoding/binary"
	"regexp"
	"testing"

	"github.com/google/uuid"

	"github.com/weir-streams/weir/internal/record"
)

// TestDeriveIDGolden pins ids computed once: a change to the namespace, the
// name layout or the formatting would silently give replayed records new
// ids, and an idempotent sink would then store them twice.
func TestDeriveIDGolden(t *testing.T) {
	for _, tt := range []struct {
		topic     string
		partition int32
		offset    int64
		index     int
		want      string
	}{
		{"pipeline_raw", 0, 0, 0, "efc8ee5e-2f15-53ac-a0ab-c80c20d90600"},
		{"pipeline_raw", 3, 123456789, 2, "62315974-de6a-5987-bfa1-d9e9720aa424"},
	} {
		if got := record.DeriveID(tt.topic, tt.partition, tt.offset, tt.index); got != tt.want {
			t.Errorf("DeriveID(%q, %d, %d, %d) = %s, want %s", tt.topic, tt.partition, tt.offset, tt.index, got, tt.want)
		}
	}
}

// TestDeriveIDIsVersion5 derives the same ids with an independent UUID
// implementation, which checks that they are genuine RFC 4122 version-5
// UUIDs of the documented name: topic, a zero byte, then partition, offset
// and index in big-endian order.
func TestDeriveIDIsVersion5(t *testing.T) {
	ns := uuid.MustParse("6b1d3f8e-2a57-4c0b-9e41-77d205c3a819")
	form := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	for _, c := range []struct {
		topic     string
		partition int32
		offset    int64
		index     int
	}{
		{"pipeline_raw", 0, 0, 0},
		{"pipeline_raw", 3, 123456789, 2},
		{"", 0, 0, 0},
		{"t", -1, -1, 0},
		{"a.very-long_topic.name", 2147483647, 1<<63 - 1, 1 << 20},
	} {
		got := record.DeriveID(c.topic, c.partition, c.offset, c.index)
		if !form.MatchString(got) {
			t.Errorf("%s is not a lower-case version-5 UUID", got)
		}
		name := append([]byte(c.topic), 0)
		name = binary.BigEndian.AppendUint32(name, uint32(c.partition))
		name = binary.BigEndian.AppendUint64(name, uint64(c.offset))
		name = binary.BigEndian.AppendUint32(name, uint32(c.index))
		want := uuid.NewSHA1(ns, name)
		if got != want.String() {
			t.Errorf("DeriveID%v = %s, want %s", c, got, want)
		}
		if u := uuid.MustParse(got); u.Version() != 5 || u.Variant() != uuid.RFC4122 {
			t.Errorf("%s: version %d variant %v", got, u.Version(), u.Variant())
		}
	}
}

func TestDeriveIDDeterministicAndDistinct(t *testing.T) {
	base := record.DeriveID("raw", 1, 100, 0)
	if again := record.DeriveID("raw", 1, 100, 0); again != base {
		t.Fatalf("two derivations differ: %s %s", base, again)
	}
	seen := map[string]string{base: "base"}
	for what, id := range map[string]string{
		"topic":     record.DeriveID("raw2", 1, 100, 0),
		"partition": record.DeriveID("raw", 2, 100, 0),
		"offset":    record.DeriveID("raw", 1, 101, 0),
		"index":     record.DeriveID("raw", 1, 100, 1),
	} {
		if other, dup := seen[id]; dup {
			t.Errorf("changing the %s gives the id of %s: %s", what, other, id)
		}
		seen[id] = what
	}
	o := record.Origin{Topic: "raw", Partition: 1, Offset: 100, Index: 0}
	if o.ID() != base {
		t.Errorf("Origin.ID = %s, want %s", o.ID(), base)
	}
}

// TestDeriveTopicID: ids from a topic id are stable, differ between topic
// ids (clusters, incarnations) and from name-derived ids, and fall back to
// DeriveID for a broker without topic ids.
func TestDeriveTopicID(t *testing.T) {
	a := [16]byte{0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10}
	b := a
	b[15] = 0x11
	got := record.DeriveTopicID(a, "pipeline_raw", 3, 42, 0)
	if got != record.DeriveTopicID(a, "pipeline_raw", 3, 42, 0) {
		t.Fatal("DeriveTopicID is not stable")
	}
	if got == record.DeriveTopicID(b, "pipeline_raw", 3, 42, 0) {
		t.Fatal("two topic ids gave the same record id")
	}
	if got == record.DeriveID("pipeline_raw", 3, 42, 0) {
		t.Fatal("a topic-id id equals the name-derived id")
	}
	if got == record.DeriveTopicID(a, "pipeline_raw", 3, 42, 1) || got == record.DeriveTopicID(a, "pipeline_raw", 3, 43, 0) {
		t.Fatal("index or offset ignored")
	}
	if z := record.DeriveTopicID([16]byte{}, "pipeline_raw", 3, 42, 0); z != record.DeriveID("pipeline_raw", 3, 42, 0) {
		t.Fatalf("zero topic id: %s, want the name-derived id", z)
	}
	// Golden, and derived again with an independent UUID implementation
	// from the documented name: 0xff, the topic id, then partition, offset
	// and index in big-endian order. A change would give every record a
	// new id.
	if want := "e399a2b4-5897-5cb3-86f5-d06e62d17133"; got != want {
		t.Errorf("DeriveTopicID = %s, want %s", got, want)
	}
	name := append([]byte{0xff}, a[:]...)
	name = binary.BigEndian.AppendUint32(name, 3)
	name = binary.BigEndian.AppendUint64(name, 42)
	name = binary.BigEndian.AppendUint32(name, 0)
	if want := uuid.NewSHA1(uuid.MustParse("6b1d3f8e-2a57-4c0b-9e41-77d205c3a819"), name).String(); got != want {
		t.Errorf("DeriveTopicID = %s, the UUID of its documented name is %s", got, want)
	}
}

func BenchmarkDeriveTopicID(b *testing.B) {
	id := [16]byte{0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10}
	for i := 0; b.Loop(); i++ {
		_ = record.DeriveTopicID(id, "pipeline_raw", 3, int64(i), 0)
	}
}

// TestIDsCarvesTheSameIDs: ids carved from an IDs buffer are those of
// Origin.ID, with topic ids and without, and stay unchanged while more are
// carved, past the end of the first buffer and from a zero IDs.
func TestIDsCarvesTheSameIDs(t *testing.T) {
	tid := [16]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}
	for _, ids := range []record.IDs{record.NewIDs(100), {}} {
		var got, want []string
		for off := range int64(250) {
			o := record.Origin{Topic: "pipeline_raw", Partition: int32(off % 3), Offset: off * 7919, Index: int(off % 2)}
			if off%2 == 0 {
				o.TopicID = tid
			}
			got = append(got, ids.ID(o))
			want = append(want, o.ID())
		}
		for i := range want {
			if got[i] != want[i] || len(got[i]) != record.IDLen {
				t.Fatalf("id %d = %q, want %q", i, got[i], want[i])
			}
		}
	}
	ids := record.NewIDs(16)
	if n := testing.AllocsPerRun(100, func() {
		ids = record.NewIDs(16)
		for range 16 {
			ids.ID(record.Origin{Topic: "t", TopicID: tid})
		}
	}); n != 1 {
		t.Errorf("16 ids: %v allocations, want 1", n)
	}
}

// BenchmarkIDsCarved is BenchmarkDeriveTopicID with the ids carved from
// one buffer per 2,048 (a stream's poll), as the stream derives them.
func BenchmarkIDsCarved(b *testing.B) {
	o := record.Origin{Topic: "pipeline_raw", Partition: 3, TopicID: [16]byte{0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10}}
	var ids record.IDs
	for i := 0; b.Loop(); i++ {
		if i%2048 == 0 {
			ids = record.NewIDs(2048)
		}
		o.Offset = int64(i)
		_ = ids.ID(o)
	}
}

// TestDeriveIDEveryTopicLength derives ids for topic names of every length
// from 0 to 300 bytes, across the sizes of the stack buffers the hashed
// message is written into (up to 31 bytes, up to 127, longer ones), and for
// topic ids, with the independent UUID implementation.
func TestDeriveIDEveryTopicLength(t *testing.T) {
	ns := uuid.MustParse("6b1d3f8e-2a57-4c0b-9e41-77d205c3a819")
	coords := func(name []byte, partition int32, offset int64, index int) []byte {
		name = binary.BigEndian.AppendUint32(name, uint32(partition))
		name = binary.BigEndian.AppendUint64(name, uint64(offset))
		return binary.BigEndian.AppendUint32(name, uint32(index))
	}
	var topic []byte
	for n := 0; n <= 300; n++ {
		partition, offset, index := int32(n)-7, int64(n)*1_000_003-50, n%5
		want := uuid.NewSHA1(ns, coords(append([]byte(string(topic)), 0), partition, offset, index)).String()
		if got := record.DeriveID(string(topic), partition, offset, index); got != want {
			t.Fatalf("DeriveID of a %d-byte topic = %s, want %s", n, got, want)
		}
		var ids record.IDs
		if got := ids.ID(record.Origin{Topic: string(topic), Partition: partition, Offset: offset, Index: index}); got != want {
			t.Fatalf("IDs.ID of a %d-byte topic = %s, want %s", n, got, want)
		}
		topicID := [16]byte{byte(n), 0xff, 0, 0x80, 7}
		name := append([]byte{0xff}, topicID[:]...)
		wantT := uuid.NewSHA1(ns, coords(name, partition, offset, index)).String()
		if got := record.DeriveTopicID(topicID, string(topic), partition, offset, index); got != wantT {
			t.Fatalf("DeriveTopicID with a %d-byte topic = %s, want %s", n, got, wantT)
		}
		topic = append(topic, "abcdefghij._-"[n%13])
	}
}
