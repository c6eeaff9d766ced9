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

// manyBlocks is the most blocks a message may take to be hashed in 16
// lanes: 4, an HMAC's text of up to 247 bytes or a SHA-256 message of up
// to 311 (a longer one is rare in log fields and goes through the pairs).
const manyBlocks = 4

// blockCount returns the number of blocks a message of n bytes takes once
// padded (its 0x80 and its 8-byte length added).
func blockCount(n int) int { return (n + 9 + BlockSize - 1) / BlockSize }

// manyMin is the fewest messages worth 16 lanes: below it, pairs cost
// less than one pass of the wide functions over mostly empty lanes.
const manyMin = 4

// many calls wide for groups of up to 16 of the messages (those of up to
// manyBlocks blocks once padded, grouped by their number of blocks) where the CPU has AVX-512, and pair for two of
// the others at a time (and all of them on other CPUs), then single for
// the last if their number is odd.
func many[T string | []byte](msgs []T, wide func(idx []int, nb int), pair func(a, b int), single func(int)) {
	var groups [manyBlocks][16]int
	var counts [manyBlocks]int
	pending := -1 // a message waiting for a partner for pair
	paired := func(k int) {
		if pending < 0 {
			pending = k
			return
		}
		pair(pending, k)
		pending = -1
	}
	for k, t := range msgs {
		nb := blockCount(len(t)) // prefix is whole blocks, compressed already
		if impl16 != AVX512x16 || nb > manyBlocks {
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
		single(pending)
	}
}

// compress16 compresses up to 16 messages, msgs[idx[j]] in lane j, each
// of nb blocks once padded as the end of a message of prefix more bytes
// (HMAC's key block), from the state init.
func compress16[T string | []byte](st *[8][16]uint32, init *State, prefix int, msgs []T, idx []int, nb int) {
	for i := range st {
		for j := range st[i] {
			st[i][j] = init[i]
		}
	}
	// Each lane's padded message, block after block. Unused lanes
	// compress whatever is there: their states are not read.
	var blocks [16][BlockSize]byte
	for b := 0; b < nb; b++ {
		start := b * BlockSize
		for j, k := range idx {
			t := msgs[k]
			blk := &blocks[j]
			n := 0
			if start < len(t) {
				n = copy(blk[:], t[start:])
			}
			clear(blk[n:])
			if end := len(t) - start; end >= 0 && end < BlockSize {
				blk[end] = 0x80
			}
			if b == nb-1 {
				binary.BigEndian.PutUint64(blk[BlockSize-8:], uint64(prefix+len(t))*8)
			}
		}
		block16BytesWith(impl16, st, &blocks)
	}
}

// block16BytesGeneric is the portable form of block16BytesAVX512.
func block16BytesGeneric(state *[8][16]uint32, blocks *[16][BlockSize]byte) {
	var w [16][16]uint32
	for j := range blocks {
		for i := range w {
			w[i][j] = binary.BigEndian.Uint32(blocks[j][4*i:])
		}
	}
	block16Generic(state, &w)
}

// digits16 writes the hex digest of lane j's state into out[idx[j]].
func digits16(st *[8][16]uint32, idx []int, out [][2 * Size]byte) {
	var digits [8][16]uint64
	hex16With(impl16, st, &digits)
	for j, k := range idx {
		o, pos := &out[k], hex16Order[j]
		for i := range digits {
			binary.LittleEndian.PutUint64(o[8*i:], digits[i][pos])
		}
	}
}

// HexMany writes the hex HMAC of texts[i] into out[i] for every i (out is
// at least as long as texts). Where the CPU has AVX-512, texts of up to
// 247 bytes are hashed 16 at a time, grouped by their number of blocks;
// the others, and all of them on other CPUs, two at a time (see
// AppendHexPair).
func (m *HMAC) HexMany(texts []string, out [][2 * Size]byte) {
	many(texts, func(idx []int, nb int) { m.hex16(texts, idx, nb, out) },
		func(a, b int) { m.AppendHexPair(out[a][:0], out[b][:0], texts[a], texts[b]) },
		func(k int) { m.AppendHex(out[k][:0], texts[k]) })
}

// hex16 writes the hex HMACs of up to 16 texts whose inner messages take
// nb blocks, texts[idx[j]] into out[idx[j]], each in one lane of the wide
// functions: the inner blocks (the text padded) from the keyed inner
// state, then the outer block (the inner digest padded) from the keyed
// outer state.
func (m *HMAC) hex16(texts []string, idx []int, nb int, out [][2 * Size]byte) {
	var st [8][16]uint32
	compress16(&st, &m.inner, BlockSize, texts, idx, nb)
	// The outer block's message is the inner digest (the state's words,
	// already as the block's big-endian words) and its padding.
	var w [16][16]uint32
	for i := range st {
		w[i] = st[i]
		for j := range st[i] {
			st[i][j] = m.outer[i]
		}
	}
	for j := range w[8] {
		w[8][j] = 0x80000000
		w[15][j] = (BlockSize + Size) * 8
	}
	block16With(impl16, &st, &w)
	digits16(&st, idx, out)
}

// HexMany256 writes the hex SHA-256 digest of msgs[i] into out[i] for
// every i (out is at least as long as msgs), as HMAC.HexMany does: 16 at
// a time where the CPU has AVX-512, two at a time otherwise.
func HexMany256(msgs [][]byte, out [][2 * Size]byte) {
	many(msgs, func(idx []int, nb int) {
		var st [8][16]uint32
		compress16(&st, &Init, 0, msgs, idx, nb)
		digits16(&st, idx, out)
	}, func(a, b int) {
		s, t := Sum256Pair(msgs[a], msgs[b])
		s.AppendHex(out[a][:0])
		t.AppendHex(out[b][:0])
	}, func(k int) {
		s := Hash256(msgs[k])
		s.AppendHex(out[k][:0])
	})
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
