//go:build !purego

#include "textflag.h"

// func scanBlocks(p *byte, n int) int
//
// Returns the offset of the first byte among p[0:n&^15] that needs escaping
// in a JSON string (below 0x20, at or above 0x80, '"' or '\\'), or n&^15
// when there is none. SSE2, which every amd64 CPU has: 16 bytes a step.
// A byte below 0x20 or at or above 0x80 is exactly one for which 0x20 is
// greater as a signed byte, so one PCMPGTB finds both kinds.
TEXT ·scanBlocks(SB), NOSPLIT, $0-24
	MOVQ p+0(FP), SI
	MOVQ n+8(FP), CX
	ANDQ $~15, CX
	XORQ AX, AX
	MOVQ $0x2020202020202020, DX
	MOVQ DX, X1
	PUNPCKLQDQ X1, X1
	MOVQ $0x2222222222222222, DX
	MOVQ DX, X2
	PUNPCKLQDQ X2, X2
	MOVQ $0x5c5c5c5c5c5c5c5c, DX
	MOVQ DX, X3
	PUNPCKLQDQ X3, X3

loop:
	CMPQ AX, CX
	JAE  done
	MOVOU   (SI)(AX*1), X0
	MOVO    X1, X4
	PCMPGTB X0, X4
	MOVO    X0, X5
	PCMPEQB X2, X5
	PCMPEQB X3, X0
	POR     X5, X4
	POR     X0, X4
	PMOVMSKB X4, DX
	TESTL   DX, DX
	JNZ     found
	ADDQ    $16, AX
	JMP     loop

found:
	BSFL DX, DX
	ADDQ DX, AX

done:
	MOVQ AX, ret+16(FP)
	RET
