//go:build !purego

package record

// scanBlocks returns the offset of the first byte of p[0:n&^15] that
// jsonSafe calls unsafe, or n&^15 when all are safe: 16 bytes a step with
// SSE2 (jsonscan_amd64.s). p must point to at least n readable bytes.
//
//go:noescape
func scanBlocks(p *byte, n int) int

// haveScanBlocks tells nextUnsafe to use scanBlocks.
var haveScanBlocks = true
