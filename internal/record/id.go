package record

import (
	"crypto/sha1"
	"encoding/binary"
	"encoding/hex"
)

// idNamespace is the UUID namespace of record ids (a random v4 UUID fixed
// once for Weir). Changing it changes every id: never do.
var idNamespace = [16]byte{0x6b, 0x1d, 0x3f, 0x8e, 0x2a, 0x57, 0x4c, 0x0b, 0x9e, 0x41, 0x77, 0xd2, 0x05, 0xc3, 0xa8, 0x19}

// DeriveID returns the record id of the output at position index among the
// outputs of the input message at topic/partition/offset: a name-based
// (version 5, SHA-1) UUID of those coordinates. A replay of the same input
// after a crash gives the same ids, so an idempotent sink (upsert by id)
// stores each record once.
func DeriveID(topic string, partition int32, offset int64, index int) string {
	var buf [128]byte
	name := append(buf[:0], topic...)
	name = append(name, 0)
	name = binary.BigEndian.AppendUint32(name, uint32(partition))
	name = binary.BigEndian.AppendUint64(name, uint64(offset))
	name = binary.BigEndian.AppendUint32(name, uint32(index))

	h := sha1.New()
	h.Write(idNamespace[:])
	h.Write(name)
	var sum [sha1.Size]byte
	u := h.Sum(sum[:0])[:16]
	u[6] = (u[6] & 0x0f) | 0x50 // version 5
	u[8] = (u[8] & 0x3f) | 0x80 // RFC 4122 variant

	var out [36]byte
	hex.Encode(out[0:8], u[0:4])
	out[8] = '-'
	hex.Encode(out[9:13], u[4:6])
	out[13] = '-'
	hex.Encode(out[14:18], u[6:8])
	out[18] = '-'
	hex.Encode(out[19:23], u[8:10])
	out[23] = '-'
	hex.Encode(out[24:36], u[10:16])
	return string(out[:])
}

// ID returns the id this origin derives.
func (o Origin) ID() string { return DeriveID(o.Topic, o.Partition, o.Offset, o.Index) }
