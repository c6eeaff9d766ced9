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

// shortText is the longest text whose HMAC takes one inner block: 55
// bytes, the 64-byte block less its padding (0x80 and the 8-byte length).
const shortText = BlockSize - 9

// manyMin is the fewest short texts worth 16 lanes: below it, pairs cost
// less than one pass of the wide function over mostly empty lanes.
const manyMin = 4

// HexMany writes the hex HMAC of texts[i] into out[i] for every i (out is
// at least as long as texts). Texts of up to 55 bytes are hashed 16 at a
// time with AVX-512 where the CPU has it; the others, and all of them on
// other CPUs, two at a time (see AppendHexPair).
func (m *HMAC) HexMany(texts []string, out [][2 * Size]byte) {
	var group [16]int
	n := 0
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
		if impl16 != AVX512x16 || len(t) > shortText {
			pair(k)
			continue
		}
		group[n] = k
		n++
		if n == len(group) {
			m.hex16(texts, group[:n], out)
			n = 0
		}
	}
	if n >= manyMin {
		m.hex16(texts, group[:n], out)
	} else {
		for _, k := range group[:n] {
			pair(k)
		}
	}
	if pending >= 0 {
		m.AppendHex(out[pending][:0], texts[pending])
	}
}

// hex16 writes the hex HMACs of up to 16 texts of at most 55 bytes,
// texts[idx[j]] into out[idx[j]], each in one lane of the wide function:
// the inner block (the text padded) from the keyed inner state, then the
// outer block (the inner digest padded) from the keyed outer state.
func (m *HMAC) hex16(texts []string, idx []int, out [][2 * Size]byte) {
	var st [8][16]uint32
	var w [16][16]uint32
	for i := range st {
		for j := range st[i] {
			st[i][j] = m.inner[i]
		}
	}
	for j, k := range idx {
		t := texts[k]
		var blk [BlockSize]byte
		copy(blk[:], t)
		blk[len(t)] = 0x80
		binary.BigEndian.PutUint64(blk[BlockSize-8:], uint64(BlockSize+len(t))*8)
		for i := range w {
			w[i][j] = binary.BigEndian.Uint32(blk[4*i:])
		}
	}
	block16With(impl16, &st, &w)
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
	for j, k := range idx {
		o := &out[k]
		for i := range st {
			binary.LittleEndian.PutUint64(o[8*i:], hexWord(st[i][j]))
		}
	}
}
