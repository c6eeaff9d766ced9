package sha256block

import (
	"encoding/binary"
	"math"
)

// Messages padded where they lie: a caller that builds many messages one
// after the other in one buffer (ModifyId builds a batch's texts so) can
// append each one's SHA-256 padding right after it (Pad) and have them
// hashed where they are (HexManyPadded). In AVX-512's lanes the blocks are
// then gathered from the buffer directly, instead of being copied and
// padded into a block per lane first (compress16), which cost about a
// fifth of hashing a two-block message.

// Pad appends to data the SHA-256 padding of the message data[start:]
// (0x80, zeros and the message's length in bits), so that data[start:]
// is whole blocks: what HexManyPadded takes.
func Pad(data []byte, start int) []byte {
	n := len(data) - start
	padded := blockCount(n) * BlockSize
	data = append(data, 0x80)
	for len(data)-start < padded-8 {
		data = append(data, 0)
	}
	return binary.BigEndian.AppendUint64(data, uint64(n)<<3)
}

// HexManyPadded writes into out[k] the hex SHA-256 digest of message k
// of data, for every k: message k is data[ends[k-1]:ends[k]] (from 0 for
// the first), a message followed by its padding as Pad appends it. It
// gives what HexMany256 gives for the messages without their padding:
// where the CPU has AVX-512, messages of up to manyBlocks blocks 16 at a
// time, their blocks gathered from data; the others, and all on other
// CPUs, two at a time.
func HexManyPadded(data []byte, ends []int, out [][2 * Size]byte) {
	var groups [manyBlocks][16]int
	var counts [manyBlocks]int
	pending := -1
	start := func(k int) int {
		if k == 0 {
			return 0
		}
		return ends[k-1]
	}
	msg := func(k int) []byte { return data[start(k):ends[k]] }
	paired := func(k int) {
		if pending < 0 {
			pending = k
			return
		}
		s, t := Init, Init
		blockPair(&s, &t, msg(pending), msg(k))
		s.AppendHex(out[pending][:0])
		t.AppendHex(out[k][:0])
		pending = -1
	}
	wide := func(idx []int, nb int) {
		var st [8][16]uint32
		for i := range st {
			for j := range st[i] {
				st[i][j] = Init[i]
			}
		}
		// Unused lanes compress lane 0's blocks again: their states are
		// not read, and their offsets stay inside data.
		var offs [16]int32
		for j := range offs {
			offs[j] = int32(start(idx[0]))
		}
		for j, k := range idx {
			offs[j] = int32(start(k))
		}
		for b := 0; b < nb; b++ {
			block16GatherWith(impl16, &st, data, &offs)
			for j := range offs {
				offs[j] += BlockSize
			}
		}
		digits16(&st, idx, out)
	}
	// Offsets into data are 32-bit in the gathers.
	lanes := impl16 == AVX512x16 && len(data) <= math.MaxInt32
	for k := range ends {
		nb := (ends[k] - start(k)) / BlockSize
		if !lanes || nb > manyBlocks {
			paired(k)
			continue
		}
		g := &counts[nb-1]
		groups[nb-1][*g] = k
		*g++
		if *g == 16 {
			wide(groups[nb-1][:], nb)
			*g = 0
		}
	}
	for b, n := range counts {
		if n >= manyMin {
			wide(groups[b][:n], b+1)
			continue
		}
		for _, k := range groups[b][:n] {
			paired(k)
		}
	}
	if pending >= 0 {
		s := Init
		Block(&s, msg(pending))
		s.AppendHex(out[pending][:0])
	}
}

// blockPair compresses the whole blocks of a into s and those of b into
// t, a block of one next to a block of the other (see Sum256Pair).
func blockPair(s, t *State, a, b []byte) {
	common := min(len(a), len(b)) &^ (BlockSize - 1)
	for i := 0; i < common; i += BlockSize {
		blockWith(impl, s, a[i:i+BlockSize])
		blockWith(impl, t, b[i:i+BlockSize])
	}
	Block(s, a[common:])
	Block(t, b[common:])
}

// block16GatherGeneric is the portable form of block16GatherAVX512.
func block16GatherGeneric(state *[8][16]uint32, data []byte, offs *[16]int32) {
	var blocks [16][BlockSize]byte
	for j, off := range offs {
		copy(blocks[j][:], data[off:int(off)+BlockSize])
	}
	block16BytesGeneric(state, &blocks)
}
