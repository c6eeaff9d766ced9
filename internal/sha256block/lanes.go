package sha256block

import "encoding/binary"

// Lanes: SHA-256 over 16 messages at once, one per 32-bit lane of AVX-512
// registers. SHA-NI compresses one block in about 45 ns on the development
// machine (AMD Zen 5) whatever the code around it does: its rounds are
// bound by the SHA unit's throughput, so two messages side by side save
// only the calls' overheads. AVX-512 does the same rounds with ordinary
// vector instructions (rotations, three-input logic, additions) on 16
// messages in each instruction, which costs the 16 about what SHA-NI takes
// for two or three.

// block16Generic is the portable form of block16AVX512: each lane
// compressed in turn with the one-block function in use.
func block16Generic(state *[8][16]uint32, w *[16][16]uint32) {
	for j := 0; j < 16; j++ {
		var s State
		var blk [BlockSize]byte
		for i := range s {
			s[i] = state[i][j]
		}
		for t := 0; t < 16; t++ {
			binary.BigEndian.PutUint32(blk[4*t:], w[t][j])
		}
		blockWith(impl, &s, blk[:])
		for i := range s {
			state[i][j] = s[i]
		}
	}
}

// manyBlocks is the most inner blocks a text may take to be hashed in 16
// lanes: 4, texts of up to 247 bytes (a longer one is rare in a log field
// and goes through AppendHexPair).
const manyBlocks = 4

// innerBlocks returns the number of blocks of the inner message of an
// HMAC of a text of n bytes: the text after the key's block, its 0x80
// and its 8-byte length.
func innerBlockCount(n int) int { return (n + 9 + BlockSize - 1) / BlockSize }

// manyMin is the fewest texts worth 16 lanes: below it, pairs cost less
// than one pass of the wide function over mostly empty lanes.
const manyMin = 4

// HexMany writes the hex HMAC of texts[i] into out[i] for every i (out is
// at least as long as texts). Where the CPU has AVX-512, texts of up to
// 247 bytes are hashed 16 at a time, grouped by their number of blocks;
// the others, and all of them on other CPUs, two at a time (see
// AppendHexPair).
func (m *HMAC) HexMany(texts []string, out [][2 * Size]byte) {
	var groups [manyBlocks][16]int
	var counts [manyBlocks]int
	pending := -1 // a text waiting for a partner for AppendHexPair
	pair := func(k int) {
		if pending < 0 {
			pending = k
			return
		}
		m.AppendHexPair(out[pending][:0], out[k][:0], texts[pending], texts[k])
		pending = -1
	}
	for k, t := range texts {
		nb := innerBlockCount(len(t))
		if impl16 != AVX512x16 || nb > manyBlocks {
			pair(k)
			continue
		}
		g := &counts[nb-1]
		groups[nb-1][*g] = k
		*g++
		if *g == 16 {
			m.hex16(texts, groups[nb-1][:], nb, out)
			*g = 0
		}
	}
	for b, n := range counts {
		if n >= manyMin {
			m.hex16(texts, groups[b][:n], b+1, out)
			continue
		}
		for _, k := range groups[b][:n] {
			pair(k)
		}
	}
	if pending >= 0 {
		m.AppendHex(out[pending][:0], texts[pending])
	}
}

// hex16 writes the hex HMACs of up to 16 texts whose inner messages take
// nb blocks, texts[idx[j]] into out[idx[j]], each in one lane of the wide
// function: the inner blocks (the text padded) from the keyed inner
// state, then the outer block (the inner digest padded) from the keyed
// outer state.
func (m *HMAC) hex16(texts []string, idx []int, nb int, out [][2 * Size]byte) {
	var st [8][16]uint32
	var w [16][16]uint32
	for i := range st {
		for j := range st[i] {
			st[i][j] = m.inner[i]
		}
	}
	// Each lane's padded message, block after block, its words put in the
	// lane's column.
	for b := 0; b < nb; b++ {
		start := b * BlockSize
		for j, k := range idx {
			t := texts[k]
			var blk [BlockSize]byte
			if start < len(t) {
				copy(blk[:], t[start:])
			}
			if end := len(t) - start; end >= 0 && end < BlockSize {
				blk[end] = 0x80
			}
			if b == nb-1 {
				binary.BigEndian.PutUint64(blk[BlockSize-8:], uint64(BlockSize+len(t))*8)
			}
			for i := range w {
				w[i][j] = binary.BigEndian.Uint32(blk[4*i:])
			}
		}
		block16With(impl16, &st, &w)
	}
	// The outer block's message is the inner digest (the state's words,
	// already as the block's big-endian words) and its padding.
	for i := range st {
		w[i] = st[i]
		for j := range st[i] {
			st[i][j] = m.outer[i]
		}
	}
	for j := range w[8] {
		w[8][j] = 0x80000000
		w[9][j], w[10][j], w[11][j], w[12][j], w[13][j], w[14][j] = 0, 0, 0, 0, 0, 0
		w[15][j] = (BlockSize + Size) * 8
	}
	block16With(impl16, &st, &w)
	var digits [8][16]uint64
	hex16With(impl16, &st, &digits)
	for j, k := range idx {
		o, pos := &out[k], hex16Order[j]
		for i := range digits {
			binary.LittleEndian.PutUint64(o[8*i:], digits[i][pos])
		}
	}
}

// hex16Order is where hex16AVX512 leaves each lane's digits: its byte
// unpacking works within 128-bit quarters of the register, so each
// quarter's first two lanes come in the first half, its last two in the
// second.
var hex16Order = [16]int{0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15}

// hex16Generic is the portable form of hex16AVX512, with the same order.
func hex16Generic(state *[8][16]uint32, out *[8][16]uint64) {
	for i := range state {
		for j, w := range state[i] {
			out[i][hex16Order[j]] = hexWord(w)
		}
	}
}
