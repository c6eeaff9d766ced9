package record

import (
	"crypto/sha1"
	"encoding/binary"
	"encoding/hex"
	"unsafe"
)

// idNamespace is the UUID namespace of record ids (a random v4 UUID fixed
// once for Weir). Changing it changes every id: never do.
var idNamespace = [16]byte{0x6b, 0x1d, 0x3f, 0x8e, 0x2a, 0x57, 0x4c, 0x0b, 0x9e, 0x41, 0x77, 0xd2, 0x05, 0xc3, 0xa8, 0x19}

// DeriveID returns the record id of the output at position index among the
// outputs of the input message at topic/partition/offset: a name-based
// (version 5, SHA-1) UUID of those coordinates. A replay of the same input
// after a crash gives the same ids, so an idempotent sink (upsert by id)
// stores each record once.
//
// These ids come from the topic's name: two clusters, or a topic deleted and
// created again, give the same ids to different messages. DeriveTopicID is
// what the stream uses when the broker gives topic ids; DeriveID stays for
// brokers without them (before Kafka 3.1) and for ids already written.
func DeriveID(topic string, partition int32, offset int64, index int) string {
	var out [IDLen]byte
	appendDeriveID(out[:0], topic, partition, offset, index)
	return string(out[:])
}

// IDLen is the length of every id that DeriveID and DeriveTopicID return.
const IDLen = 36

func appendDeriveID(dst []byte, topic string, partition int32, offset int64, index int) []byte {
	var buf [128]byte
	name := append(buf[:0], topic...)
	name = append(name, 0)
	return appendNameUUID(dst, name, partition, offset, index)
}

// DeriveTopicID returns the record id of the output at position index among
// the outputs of the input message at partition/offset of the topic whose
// Kafka topic id (KIP-516) is topicID: a version 5 UUID of those
// coordinates. A topic id is a random UUID the broker gives a topic when it
// is created, so the ids differ between clusters and between incarnations of
// a topic of the same name, and stay the same when the same topic is read
// again (a replay). A zero topicID (a broker that does not return ids) falls
// back to DeriveID.
func DeriveTopicID(topicID [16]byte, topic string, partition int32, offset int64, index int) string {
	var out [IDLen]byte
	appendDeriveTopicID(out[:0], topicID, topic, partition, offset, index)
	return string(out[:])
}

func appendDeriveTopicID(dst []byte, topicID [16]byte, topic string, partition int32, offset int64, index int) []byte {
	if topicID == ([16]byte{}) {
		return appendDeriveID(dst, topic, partition, offset, index)
	}
	var buf [32]byte
	// The leading 0xff cannot start a name of DeriveID (a topic name is
	// printable ASCII), so the two kinds of name never meet.
	name := append(buf[:0], 0xff)
	name = append(name, topicID[:]...)
	return appendNameUUID(dst, name, partition, offset, index)
}

// appendNameUUID appends the IDLen bytes of the id of name and the
// coordinates to dst.
func appendNameUUID(dst, name []byte, partition int32, offset int64, index int) []byte {
	// The namespace and the name go into one stack buffer hashed by one
	// sha1.Sum call: sha1.New's digest and a name passed through the
	// hash.Hash interface escaped to the heap, two allocations a record.
	var buf [16 + 128 + 16]byte
	msg := append(buf[:0], idNamespace[:]...)
	msg = append(msg, name...)
	msg = binary.BigEndian.AppendUint32(msg, uint32(partition))
	msg = binary.BigEndian.AppendUint64(msg, uint64(offset))
	msg = binary.BigEndian.AppendUint32(msg, uint32(index))
	sum := sha1.Sum(msg)
	u := sum[:16]
	u[6] = (u[6] & 0x0f) | 0x50 // version 5
	u[8] = (u[8] & 0x3f) | 0x80 // RFC 4122 variant

	n := len(dst)
	dst = append(dst, make([]byte, IDLen)...)
	out := dst[n : n+IDLen]
	hex.Encode(out[0:8], u[0:4])
	out[8] = '-'
	hex.Encode(out[9:13], u[4:6])
	out[13] = '-'
	hex.Encode(out[14:18], u[6:8])
	out[18] = '-'
	hex.Encode(out[19:23], u[8:10])
	out[23] = '-'
	hex.Encode(out[24:36], u[10:16])
	return dst
}

// ID returns the id this origin derives.
func (o Origin) ID() string {
	return DeriveTopicID(o.TopicID, o.Topic, o.Partition, o.Offset, o.Index)
}

// IDs carves the ids of a chunk of records from one buffer: one allocation
// for the chunk instead of one string per record (the stream derives an id
// for every record it reads). The zero IDs is ready to use.
type IDs struct {
	buf []byte
}

// NewIDs returns an IDs with room for n ids in one allocation.
func NewIDs(n int) IDs { return IDs{buf: make([]byte, 0, n*IDLen)} }

// ID returns o.ID(), carved from the buffer. The strings it returns share
// the buffer, which stays in memory as long as any of them does; once it
// is full, a new buffer of the same size is started (a string never moves,
// so the ones already returned stay valid).
func (ids *IDs) ID(o Origin) string {
	if cap(ids.buf)-len(ids.buf) < IDLen {
		ids.buf = make([]byte, 0, max(cap(ids.buf), IDLen))
	}
	n := len(ids.buf)
	ids.buf = appendDeriveTopicID(ids.buf, o.TopicID, o.Topic, o.Partition, o.Offset, o.Index)
	return unsafe.String(&ids.buf[n], IDLen)
}
