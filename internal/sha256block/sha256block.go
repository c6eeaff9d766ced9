// Package sha256block holds the SHA-256 compression function (Go's own:
// SHA-NI or AVX2 assembly on amd64 where the CPU has them, the generic
// function otherwise) and the two hashes the kit's processors compute per
// record on top of it, without crypto/sha256's per-call costs: a one-shot
// SHA-256 (Sum256, ModifyId's hashFields) and an HMAC-SHA256 whose keyed
// inner and outer states are computed once (HMAC, MaskFields' tokens).
//
// Why not crypto/sha256 and crypto/hmac: for the short values of a log
// record (an address, a path) their fixed costs are as large as the
// hashing itself. An HMAC-SHA256 of an IPv4 address is two compressions
// (the inner over the value, the outer over the inner digest), about 45 ns
// each with SHA-NI, but crypto/hmac takes about 170 ns: it restores two
// saved states from their marshalled form, pads through a digest's
// buffer, and copies digests between them. Here a value up to 55 bytes is
// padded in a stack array and compressed once from a copy of the inner
// state, the digest padded likewise and compressed once from the outer
// state, and nothing else.
//
// Where many values are to be hashed (a batch's), HMAC.HexMany and
// HexMany256 take them 16 at a time in the lanes of AVX-512 registers
// (lanes.go), about 20 ns a block and value against SHA-NI's 45 on the
// development machine, or two at a time without AVX-512.
//
// The results are the standard ones: tests compare every function with
// crypto/sha256 and crypto/hmac on a table, on random inputs of every
// length up to 300 bytes and under fuzzing, with each block function.
package sha256block

import (
	"encoding/binary"
	"math/bits"
)

// Size is the length of a SHA-256 digest in bytes; BlockSize the length of
// the blocks the compression function takes.
const (
	Size      = 32
	BlockSize = 64
	chunk     = BlockSize
)

// maxAsmSize bounds the bytes given to one call of an assembly block
// function, as crypto/sha256 does: those functions cannot be preempted,
// so a long input is compressed in pieces of at most 64 KiB.
const maxAsmSize = 1024 * BlockSize

// State is the chaining value of SHA-256: eight 32-bit words.
type State [8]uint32

// Init is SHA-256's initial state (FIPS 180-4, 5.3.3).
var Init = State{0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A, 0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19}

// Impl names a block function.
type Impl int

// The block functions: Generic is portable Go; SHANI (Intel's SHA
// extensions) and AVX2 are Go's assembly for amd64. AVX512x16 is not one:
// it compresses 16 blocks of 16 messages at once (see HMAC.HexMany), and
// is listed by supported, first, when the CPU has AVX-512.
const (
	Generic Impl = iota
	AVX2
	SHANI
	AVX512x16
)

func (i Impl) String() string {
	switch i {
	case AVX512x16:
		return "AVX-512x16"
	case SHANI:
		return "SHA-NI"
	case AVX2:
		return "AVX2"
	}
	return "generic"
}

// impl is the block function this CPU uses, chosen once: the fastest it
// supports; impl16 is AVX512x16 if the CPU has it, for 16 messages at once.
var impl, impl16 = chooseImpls(supported())

func chooseImpls(impls []Impl) (one, sixteen Impl) {
	sixteen = Generic
	if impls[0] == AVX512x16 {
		sixteen, impls = AVX512x16, impls[1:]
	}
	return impls[0], sixteen
}

// Using returns the block function in use.
func Using() Impl { return impl }

// Block compresses the whole 64-byte blocks of p into s; a tail shorter
// than a block is ignored.
func Block(s *State, p []byte) {
	if len(p) < BlockSize {
		return // the AVX2 function reads a block before it checks the length
	}
	for len(p) > maxAsmSize {
		blockWith(impl, s, p[:maxAsmSize])
		p = p[maxAsmSize:]
	}
	blockWith(impl, s, p)
}

// finish compresses the last, partial block of a message into s: tail
// (shorter than a block) followed by SHA-256's padding for a message of
// total bytes.
func finish(s *State, tail []byte, total uint64) {
	var buf [2 * BlockSize]byte
	blockWith(impl, s, pad(&buf, tail, total))
}

// pad writes into buf the last block of a message of total bytes whose
// tail (shorter than a block) is left after its whole blocks: the tail,
// 0x80, zeros and the length in bits. It returns that block, or two when
// the tail is longer than 55 bytes (the padding needs 9).
func pad(buf *[2 * BlockSize]byte, tail []byte, total uint64) []byte {
	n := copy(buf[:], tail)
	buf[n] = 0x80
	end := BlockSize
	if n >= BlockSize-8 {
		end = 2 * BlockSize
	}
	binary.BigEndian.PutUint64(buf[end-8:end], total<<3)
	return buf[:end]
}

// Sum256 returns the SHA-256 digest of data, as crypto/sha256.Sum256.
func Sum256(data []byte) [Size]byte {
	s := Hash256(data)
	return s.Bytes()
}

// Hash256 returns the final state of SHA-256 over data: its Bytes are the
// digest, and its AppendHex writes the digest in hex without them.
func Hash256(data []byte) State {
	s := Init
	full := len(data) &^ (BlockSize - 1)
	Block(&s, data[:full])
	finish(&s, data[full:], uint64(len(data)))
	return s
}

// Sum256Pair returns the final states of SHA-256 over a and b (their
// digests are the states' Bytes), as two calls of Sum256 would, in less
// time: the two are compressed side by side, a block of one next to a
// block of the other, so that the CPU overlaps what it can of the two
// (see HMAC.finalPair). The padded last blocks of both are written before either is
// compressed: the assembly reads a block in 16-byte loads, which cannot
// take their bytes from the narrower stores that wrote it before those
// stores retire, and a store retires only after everything before it, so
// a block written between the two compressions would keep them apart.
func Sum256Pair(a, b []byte) (State, State) {
	s, t := Init, Init
	fullA, fullB := len(a)&^(BlockSize-1), len(b)&^(BlockSize-1)
	common := min(fullA, fullB)
	for i := 0; i < common; i += BlockSize {
		blockWith(impl, &s, a[i:i+BlockSize])
		blockWith(impl, &t, b[i:i+BlockSize])
	}
	Block(&s, a[common:fullA])
	Block(&t, b[common:fullB])
	var bufA, bufB [2 * BlockSize]byte
	lastA, lastB := pad(&bufA, a[fullA:], uint64(len(a))), pad(&bufB, b[fullB:], uint64(len(b)))
	blockWith(impl, &s, lastA)
	blockWith(impl, &t, lastB)
	return s, t
}

// Bytes returns the digest a final state stands for: its words big-endian.
func (s *State) Bytes() [Size]byte {
	var out [Size]byte
	for i, w := range s {
		binary.BigEndian.PutUint32(out[4*i:], w)
	}
	return out
}

// AppendHex appends the digest s stands for in lowercase hex, as
// encoding/hex would write s.Bytes().
func (s *State) AppendHex(dst []byte) []byte {
	dst = append(dst, make([]byte, 2*Size)...)
	s.putHex((*[2 * Size]byte)(dst[len(dst)-2*Size:]))
	return dst
}

// putHex writes the hex digest into out, eight digits (one word) at a
// time: the word's nibbles are spread into the bytes of a uint64 and
// turned into digits with arithmetic on all eight at once, about twice as
// fast as a table of byte pairs.
func (s *State) putHex(out *[2 * Size]byte) {
	for i, w := range s {
		binary.LittleEndian.PutUint64(out[8*i:], hexWord(w))
	}
}

// hexWord returns the eight lowercase hex digits of w, most significant
// first, as the bytes of a little-endian uint64.
func hexWord(w uint32) uint64 {
	// Spread the nibbles: nibble k (from the least significant) goes to
	// byte 7-k, so that the most significant lands in the first byte.
	x := uint64(bits.ReverseBytes32(w))
	// Now byte j of x holds the byte of w whose nibbles are digits 2j and
	// 2j+1 (the high nibble first).
	x = (x | x<<16) & 0x0000FFFF0000FFFF
	x = (x | x<<8) & 0x00FF00FF00FF00FF
	// Each 16-bit lane holds one byte of w in its low half: put its high
	// nibble in the lane's low byte and its low nibble in the high byte.
	x = (x>>4)&0x000F000F000F000F | (x&0x000F000F000F000F)<<8
	// A nibble above 9 becomes a letter: '0'+n, plus 'a'-'0'-10 = 39.
	letters := ((x + 0x0606060606060606) >> 4) & 0x0101010101010101
	return x + 0x3030303030303030 + letters*39
}
