//go:build purego || !amd64

package sha256block

func supported() []Impl { return []Impl{Generic} }

func blockWith(_ Impl, s *State, p []byte) { blockGeneric(s, p) }
