//go:build !purego

#include "textflag.h"

// AVX2+FMA kernels for kernels.go. Each widens four float32 elements to
// float64 per VCVTPS2PD and accumulates in float64, like the Go kernels:
// 32 elements per iteration into eight accumulators (Y0–Y7), then groups of
// four into Y0, then the accumulators are summed pairwise and the last
// zero to three elements are added one by one. The order of the additions
// depends only on the length, never on the address, so a vector scores the
// same wherever it lies.

// ZERO8 clears the eight accumulators.
#define ZERO8 \
	VXORPD Y0, Y0, Y0 \
	VXORPD Y1, Y1, Y1 \
	VXORPD Y2, Y2, Y2 \
	VXORPD Y3, Y3, Y3 \
	VXORPD Y4, Y4, Y4 \
	VXORPD Y5, Y5, Y5 \
	VXORPD Y6, Y6, Y6 \
	VXORPD Y7, Y7, Y7

// REDUCE8 sums Y0–Y7 pairwise into the low lane of X0 (the rest of Y0 is
// zeroed by the VEX-encoded scalar add).
#define REDUCE8 \
	VADDPD       Y1, Y0, Y0 \
	VADDPD       Y3, Y2, Y2 \
	VADDPD       Y5, Y4, Y4 \
	VADDPD       Y7, Y6, Y6 \
	VADDPD       Y2, Y0, Y0 \
	VADDPD       Y6, Y4, Y4 \
	VADDPD       Y4, Y0, Y0 \
	VEXTRACTF128 $1, Y0, X1 \
	VADDPD       X1, X0, X0 \
	VUNPCKHPD    X0, X0, X1 \
	VADDSD       X1, X0, X0

// func dotAVX2(q []float64, v []float32, ahead *float32) float64
// The 32-element loop also prefetches the same number of bytes from ahead,
// two cache lines per iteration.
TEXT ·dotAVX2(SB), NOSPLIT, $0-64
	MOVQ q_base+0(FP), DI
	MOVQ q_len+8(FP), CX
	MOVQ v_base+24(FP), SI
	MOVQ ahead+48(FP), R8
	ZERO8
	CMPQ CX, $32
	JB   dot4

dot32:
	PREFETCHT0  (R8)
	PREFETCHT0  64(R8)
	VCVTPS2PD   (SI), Y8
	VCVTPS2PD   16(SI), Y9
	VCVTPS2PD   32(SI), Y10
	VCVTPS2PD   48(SI), Y11
	VFMADD231PD (DI), Y8, Y0
	VFMADD231PD 32(DI), Y9, Y1
	VFMADD231PD 64(DI), Y10, Y2
	VFMADD231PD 96(DI), Y11, Y3
	VCVTPS2PD   64(SI), Y12
	VCVTPS2PD   80(SI), Y13
	VCVTPS2PD   96(SI), Y14
	VCVTPS2PD   112(SI), Y15
	VFMADD231PD 128(DI), Y12, Y4
	VFMADD231PD 160(DI), Y13, Y5
	VFMADD231PD 192(DI), Y14, Y6
	VFMADD231PD 224(DI), Y15, Y7
	ADDQ        $128, SI
	ADDQ        $256, DI
	ADDQ        $128, R8
	SUBQ        $32, CX
	CMPQ        CX, $32
	JAE         dot32

dot4:
	CMPQ        CX, $4
	JB          dotReduce
	VCVTPS2PD   (SI), Y8
	VFMADD231PD (DI), Y8, Y0
	ADDQ        $16, SI
	ADDQ        $32, DI
	SUBQ        $4, CX
	JMP         dot4

dotReduce:
	REDUCE8
	TESTQ CX, CX
	JZ    dotDone

dot1:
	VCVTSS2SD   (SI), X2, X2
	VFMADD231SD (DI), X2, X0
	ADDQ        $4, SI
	ADDQ        $8, DI
	DECQ        CX
	JNZ         dot1

dotDone:
	VZEROUPPER
	MOVSD X0, ret+56(FP)
	RET

// func squaredDistanceAVX2(q []float64, v []float32) float64
TEXT ·squaredDistanceAVX2(SB), NOSPLIT, $0-56
	MOVQ q_base+0(FP), DI
	MOVQ q_len+8(FP), CX
	MOVQ v_base+24(FP), SI
	ZERO8
	CMPQ CX, $32
	JB   l24

l232:
	VCVTPS2PD   (SI), Y8
	VCVTPS2PD   16(SI), Y9
	VCVTPS2PD   32(SI), Y10
	VCVTPS2PD   48(SI), Y11
	VSUBPD      (DI), Y8, Y8
	VSUBPD      32(DI), Y9, Y9
	VSUBPD      64(DI), Y10, Y10
	VSUBPD      96(DI), Y11, Y11
	VFMADD231PD Y8, Y8, Y0
	VFMADD231PD Y9, Y9, Y1
	VFMADD231PD Y10, Y10, Y2
	VFMADD231PD Y11, Y11, Y3
	VCVTPS2PD   64(SI), Y12
	VCVTPS2PD   80(SI), Y13
	VCVTPS2PD   96(SI), Y14
	VCVTPS2PD   112(SI), Y15
	VSUBPD      128(DI), Y12, Y12
	VSUBPD      160(DI), Y13, Y13
	VSUBPD      192(DI), Y14, Y14
	VSUBPD      224(DI), Y15, Y15
	VFMADD231PD Y12, Y12, Y4
	VFMADD231PD Y13, Y13, Y5
	VFMADD231PD Y14, Y14, Y6
	VFMADD231PD Y15, Y15, Y7
	ADDQ        $128, SI
	ADDQ        $256, DI
	SUBQ        $32, CX
	CMPQ        CX, $32
	JAE         l232

l24:
	CMPQ        CX, $4
	JB          l2Reduce
	VCVTPS2PD   (SI), Y8
	VSUBPD      (DI), Y8, Y8
	VFMADD231PD Y8, Y8, Y0
	ADDQ        $16, SI
	ADDQ        $32, DI
	SUBQ        $4, CX
	JMP         l24

l2Reduce:
	REDUCE8
	TESTQ CX, CX
	JZ    l2Done

l21:
	VCVTSS2SD   (SI), X2, X2
	VSUBSD      (DI), X2, X2
	VFMADD231SD X2, X2, X0
	ADDQ        $4, SI
	ADDQ        $8, DI
	DECQ        CX
	JNZ         l21

l2Done:
	VZEROUPPER
	MOVSD X0, ret+48(FP)
	RET

// func sumSquaresAVX2(v []float32) float64
TEXT ·sumSquaresAVX2(SB), NOSPLIT, $0-32
	MOVQ v_base+0(FP), SI
	MOVQ v_len+8(FP), CX
	ZERO8
	CMPQ CX, $32
	JB   sq4

sq32:
	VCVTPS2PD   (SI), Y8
	VCVTPS2PD   16(SI), Y9
	VCVTPS2PD   32(SI), Y10
	VCVTPS2PD   48(SI), Y11
	VFMADD231PD Y8, Y8, Y0
	VFMADD231PD Y9, Y9, Y1
	VFMADD231PD Y10, Y10, Y2
	VFMADD231PD Y11, Y11, Y3
	VCVTPS2PD   64(SI), Y12
	VCVTPS2PD   80(SI), Y13
	VCVTPS2PD   96(SI), Y14
	VCVTPS2PD   112(SI), Y15
	VFMADD231PD Y12, Y12, Y4
	VFMADD231PD Y13, Y13, Y5
	VFMADD231PD Y14, Y14, Y6
	VFMADD231PD Y15, Y15, Y7
	ADDQ        $128, SI
	SUBQ        $32, CX
	CMPQ        CX, $32
	JAE         sq32

sq4:
	CMPQ        CX, $4
	JB          sqReduce
	VCVTPS2PD   (SI), Y8
	VFMADD231PD Y8, Y8, Y0
	ADDQ        $16, SI
	SUBQ        $4, CX
	JMP         sq4

sqReduce:
	REDUCE8
	TESTQ CX, CX
	JZ    sqDone

sq1:
	VCVTSS2SD   (SI), X2, X2
	VFMADD231SD X2, X2, X0
	ADDQ        $4, SI
	DECQ        CX
	JNZ         sq1

sqDone:
	VZEROUPPER
	MOVSD X0, ret+24(FP)
	RET

