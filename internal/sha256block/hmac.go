package sha256block

import (
	"encoding/binary"
	"unsafe"
)

// HMAC computes HMAC-SHA256 (RFC 2104) under one key. It holds the states
// after the key's inner and outer pad blocks, computed once by NewHMAC, so
// that a value costs only its own blocks: one inner block for a value up
// to 55 bytes (one more per 64 bytes beyond) and one outer block.
//
// An HMAC is never changed after NewHMAC: any number of goroutines may use
// one at once.
type HMAC struct {
	inner, outer State
}

// NewHMAC returns the HMAC-SHA256 of key. A key longer than a block is
// replaced by its SHA-256 digest, as RFC 2104 says.
func NewHMAC(key []byte) *HMAC {
	if len(key) > BlockSize {
		sum := Sum256(key)
		key = sum[:]
	}
	var pad [BlockSize]byte
	copy(pad[:], key)
	for i := range pad {
		pad[i] ^= 0x36
	}
	m := &HMAC{inner: Init, outer: Init}
	Block(&m.inner, pad[:])
	for i := range pad {
		pad[i] ^= 0x36 ^ 0x5c
	}
	Block(&m.outer, pad[:])
	return m
}

// final returns the state whose bytes are the HMAC of text.
func (m *HMAC) final(text string) State {
	s := m.inner
	m.innerBlocks(&s, text)
	o := m.outer
	var buf [BlockSize]byte
	outerBlock(&o, &s, &buf)
	return o
}

// finalPair returns the states of the HMACs of a and b. It computes the
// two side by side, each step of a next to the same step of b, so that
// the CPU overlaps one's block with the other's setting up and finishing
// (on the development machine SHA-NI's rounds themselves do not overlap
// much: two HMACs this way cost about 20 % less than one after the other).
// As in Sum256Pair, each pair of blocks is written before either is
// compressed.
func (m *HMAC) finalPair(a, b string) (State, State) {
	s, t := m.inner, m.inner
	da := unsafe.Slice(unsafe.StringData(a), len(a))
	db := unsafe.Slice(unsafe.StringData(b), len(b))
	fullA, fullB := len(da)&^(BlockSize-1), len(db)&^(BlockSize-1)
	Block(&s, da[:fullA])
	Block(&t, db[:fullB])
	var bufA, bufB [2 * BlockSize]byte
	lastA := pad(&bufA, da[fullA:], BlockSize+uint64(len(da)))
	lastB := pad(&bufB, db[fullB:], BlockSize+uint64(len(db)))
	blockWith(impl, &s, lastA)
	blockWith(impl, &t, lastB)
	o, p := m.outer, m.outer
	var outA, outB [BlockSize]byte
	putOuter(&outA, &s)
	putOuter(&outB, &t)
	blockWith(impl, &o, outA[:])
	blockWith(impl, &p, outB[:])
	return o, p
}

// innerBlocks compresses text and its padding into s (the inner state).
func (m *HMAC) innerBlocks(s *State, text string) {
	data := unsafe.Slice(unsafe.StringData(text), len(text))
	full := len(data) &^ (BlockSize - 1)
	Block(s, data[:full])
	finish(s, data[full:], BlockSize+uint64(len(data)))
}

// outerBlock compresses the outer message's last block into o: the inner
// digest (of inner) with its padding; buf is the caller's scratch block.
func outerBlock(o, inner *State, buf *[BlockSize]byte) {
	putOuter(buf, inner)
	blockWith(impl, o, buf[:])
}

// putOuter writes the outer message's last block: the inner digest (the
// bytes of inner) and its padding.
func putOuter(buf *[BlockSize]byte, inner *State) {
	for i, w := range inner {
		binary.BigEndian.PutUint32(buf[4*i:], w)
	}
	buf[Size] = 0x80
	binary.BigEndian.PutUint64(buf[BlockSize-8:], (BlockSize+Size)*8)
}

// Sum returns the HMAC of text.
func (m *HMAC) Sum(text string) [Size]byte {
	s := m.final(text)
	return s.Bytes()
}

// AppendHex appends the HMAC of text in lowercase hex (64 bytes) to dst.
func (m *HMAC) AppendHex(dst []byte, text string) []byte {
	s := m.final(text)
	return s.AppendHex(dst)
}

// AppendHexPair appends the hex HMAC of a to dstA and that of b to dstB,
// as two calls of AppendHex would, in less time: see finalPair.
func (m *HMAC) AppendHexPair(dstA, dstB []byte, a, b string) ([]byte, []byte) {
	s, t := m.finalPair(a, b)
	return s.AppendHex(dstA), t.AppendHex(dstB)
}
