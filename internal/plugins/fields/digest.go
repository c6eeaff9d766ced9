package fields

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"sync"
)

// hexSize is the length of a SHA-256 digest in hex: MaskFields' tokens
// and ModifyId's default ids.
const hexSize = 2 * sha256.Size

// hexSum256Many writes the hex SHA-256 of each message of msgs into the
// same index of out.
func hexSum256Many(msgs [][]byte, out [][hexSize]byte) {
	for i, m := range msgs {
		s := sha256.Sum256(m)
		hex.Encode(out[i][:], s[:])
	}
}

// hmacHex computes HMAC-SHA256 under one key from any goroutine: a
// hash.Hash is not safe for concurrent use, so the partitions take one
// from a pool, already keyed (crypto/hmac keeps the keyed inner and outer
// states and restores them on Reset), with a buffer for the text (a
// string converted for Write would escape: an allocation a value).
type hmacHex struct {
	pool sync.Pool
}

type keyedMAC struct {
	mac hash.Hash
	buf []byte
}

func newHMACHex(key []byte) *hmacHex {
	key = append([]byte(nil), key...)
	h := &hmacHex{}
	h.pool.New = func() any { return &keyedMAC{mac: hmac.New(sha256.New, key)} }
	return h
}

// sumHex writes the hex HMAC of s into dst.
func (k *keyedMAC) sumHex(dst *[hexSize]byte, s string) {
	k.mac.Reset()
	k.buf = append(k.buf[:0], s...)
	_, _ = k.mac.Write(k.buf) // hash.Hash.Write never fails
	var sum [sha256.Size]byte
	hex.Encode(dst[:], k.mac.Sum(sum[:0]))
}

// appendHex appends the hex HMAC of s to dst.
func (h *hmacHex) appendHex(dst []byte, s string) []byte {
	k := h.pool.Get().(*keyedMAC)
	var out [hexSize]byte
	k.sumHex(&out, s)
	h.pool.Put(k)
	return append(dst, out[:]...)
}

// hexMany writes the hex HMAC of each text of texts into the same index
// of out.
func (h *hmacHex) hexMany(texts []string, out [][hexSize]byte) {
	k := h.pool.Get().(*keyedMAC)
	for i, s := range texts {
		k.sumHex(&out[i], s)
	}
	h.pool.Put(k)
}
