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
	data := unsafe.Slice(unsafe.StringData(text), len(text))
	full := len(data) &^ (BlockSize - 1)
	Block(&s, data[:full])
	finish(&s, data[full:], BlockSize+uint64(len(data)))

	// The outer message is the pad block (already in m.outer) and the
	// inner digest: one block with its padding.
	var buf [BlockSize]byte
	for i, w := range s {
		binary.BigEndian.PutUint32(buf[4*i:], w)
	}
	buf[Size] = 0x80
	binary.BigEndian.PutUint64(buf[BlockSize-8:], (BlockSize+Size)*8)
	o := m.outer
	blockWith(impl, &o, buf[:])
	return o
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
