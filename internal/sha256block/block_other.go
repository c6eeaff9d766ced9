//go:build purego || !amd64

package sha256block

func supported() []Impl { return []Impl{Generic} }

func blockWith(_ Impl, s *State, p []byte) { blockGeneric(s, p) }

func block16With(_ Impl, state *[8][16]uint32, w *[16][16]uint32) { block16Generic(state, w) }

func hex16With(_ Impl, state *[8][16]uint32, out *[8][16]uint64) { hex16Generic(state, out) }

func block16BytesWith(_ Impl, state *[8][16]uint32, blocks *[16][BlockSize]byte) {
	block16BytesGeneric(state, blocks)
}
