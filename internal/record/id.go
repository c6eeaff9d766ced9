package record

import (
	"crypto/sha1"
	"encoding/binary"
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
	// The hashed message is written once, straight into the buffer that
	// sha1.Sum reads: 64 bytes on the stack for topic names of up to 31
	// bytes, which every id of a message with a short topic name takes.
	var small [idMsgSmall]byte
	msg := small[:0]
	if len(topic)+1 > idMsgSmall-idMsgFixed {
		var large [idMsgFixed + 128]byte // longer names, on the stack up to 127 bytes
		msg = large[:0]
	}
	msg = append(msg, idNamespace[:]...)
	msg = append(msg, topic...)
	msg = append(msg, 0)
	return appendNameUUID(dst, msg, partition, offset, index)
}

// idMsgFixed is the bytes of a hashed id message besides the name: the
// namespace and the coordinates (partition, offset, index).
const idMsgFixed = 16 + 16

// idMsgSmall is the size of the stack buffer of most id messages.
const idMsgSmall = 64

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
	var buf [idMsgSmall]byte
	// The leading 0xff cannot start a name of DeriveID (a topic name is
	// printable ASCII), so the two kinds of name never meet.
	msg := append(buf[:0], idNamespace[:]...)
	msg = append(msg, 0xff)
	msg = append(msg, topicID[:]...)
	return appendNameUUID(dst, msg, partition, offset, index)
}

// appendNameUUID appends the IDLen bytes of the id of a name and the
// coordinates to dst. msg holds the namespace and the name; the
// coordinates are appended to it (in its spare capacity, which the callers
// give on the stack) and the whole hashed by one sha1.Sum call: sha1.New's
// digest and a name passed through the hash.Hash interface escaped to the
// heap, two allocations a record.
func appendNameUUID(dst, msg []byte, partition int32, offset int64, index int) []byte {
	msg = binary.BigEndian.AppendUint32(msg, uint32(partition))
	msg = binary.BigEndian.AppendUint64(msg, uint64(offset))
	msg = binary.BigEndian.AppendUint32(msg, uint32(index))
	sum := sha1.Sum(msg)
	u := sum[:16]
	u[6] = (u[6] & 0x0f) | 0x50 // version 5
	u[8] = (u[8] & 0x3f) | 0x80 // RFC 4122 variant

	n := len(dst)
	dst = append(dst, make([]byte, IDLen)...)
	out := (*[IDLen]byte)(dst[n : n+IDLen])
	// Two hex digits a byte from one table load and one two-byte store:
	// five hex.Encode loops cost more than the sixteen straight lines.
	for i, p := range uuidHexAt {
		binary.LittleEndian.PutUint16(out[p:], hexPairs[u[i]])
	}
	out[8], out[13], out[18], out[23] = '-', '-', '-', '-'
	return dst
}

// uuidHexAt is where the two hex digits of each byte of a UUID go in its
// 36-byte text form (8-4-4-4-12 digits, dashes between).
var uuidHexAt = [16]uint8{0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34}

// hexPairs holds the two lower-case hex digits of every byte value, the
// first in the low byte (a little-endian two-byte store writes it first).
var hexPairs = func() (t [256]uint16) {
	const digits = "0123456789abcdef"
	for b := range t {
		t[b] = uint16(digits[b>>4]) | uint16(digits[b&15])<<8
	}
	return t
}()

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
