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
// The results are the standard ones: tests compare every function with
// crypto/sha256 and crypto/hmac on a table, on random inputs of every
// length up to 300 bytes and under fuzzing, with each block function.
package sha256block

import "encoding/binary"

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
// extensions) and AVX2 are Go's assembly for amd64.
const (
	Generic Impl = iota
	AVX2
	SHANI
)

func (i Impl) String() string {
	switch i {
	case SHANI:
		return "SHA-NI"
	case AVX2:
		return "AVX2"
	}
	return "generic"
}

// impl is the block function this CPU uses, chosen once: the fastest it
// supports.
var impl = supported()[0]

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
// total bytes. It takes one block, or two when tail is longer than 55
// bytes (the padding needs 9).
func finish(s *State, tail []byte, total uint64) {
	var buf [2 * BlockSize]byte
	n := copy(buf[:], tail)
	buf[n] = 0x80
	end := BlockSize
	if n >= BlockSize-8 {
		end = 2 * BlockSize
	}
	binary.BigEndian.PutUint64(buf[end-8:end], total<<3)
	blockWith(impl, s, buf[:end])
}

// Sum256 returns the SHA-256 digest of data, as crypto/sha256.Sum256.
func Sum256(data []byte) [Size]byte {
	s := Init
	full := len(data) &^ (BlockSize - 1)
	Block(&s, data[:full])
	finish(&s, data[full:], uint64(len(data)))
	return s.Bytes()
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

// hexPairs holds the two lowercase hex digits of every byte.
var hexPairs = func() (t [256][2]byte) {
	const digits = "0123456789abcdef"
	for i := range t {
		t[i] = [2]byte{digits[i>>4], digits[i&15]}
	}
	return t
}()

// putHex writes the hex digest into out.
func (s *State) putHex(out *[2 * Size]byte) {
	for i, w := range s {
		o := out[8*i : 8*i+8]
		p0, p1, p2, p3 := hexPairs[w>>24], hexPairs[w>>16&0xff], hexPairs[w>>8&0xff], hexPairs[w&0xff]
		o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7] = p0[0], p0[1], p1[0], p1[1], p2[0], p2[1], p3[0], p3[1]
	}
}
