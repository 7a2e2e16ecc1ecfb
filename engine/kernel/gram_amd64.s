#include "textflag.h"

// func gramTile(c *float64, ldc int, ai, aj *float64, lda, rows int)
//
// Eight accumulators (Y0-Y7: tile rows 0-3, columns 0-3 and 4-7) so that
// two FMAs a cycle never wait on one another; per row, two loads of aj and
// four broadcasts of ai feed eight FMAs (32 multiply-adds).
TEXT ·gramTile(SB), NOSPLIT, $0-48
	MOVQ c+0(FP), DI
	MOVQ ldc+8(FP), R8
	MOVQ ai+16(FP), SI
	MOVQ aj+24(FP), DX
	MOVQ lda+32(FP), R9
	MOVQ rows+40(FP), CX
	SHLQ $3, R8
	SHLQ $3, R9

	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7

	TESTQ CX, CX
	JLE   store

loop:
	VMOVUPD      (DX), Y8
	VMOVUPD      32(DX), Y9
	VBROADCASTSD (SI), Y10
	VFMADD231PD  Y8, Y10, Y0
	VFMADD231PD  Y9, Y10, Y4
	VBROADCASTSD 8(SI), Y11
	VFMADD231PD  Y8, Y11, Y1
	VFMADD231PD  Y9, Y11, Y5
	VBROADCASTSD 16(SI), Y12
	VFMADD231PD  Y8, Y12, Y2
	VFMADD231PD  Y9, Y12, Y6
	VBROADCASTSD 24(SI), Y13
	VFMADD231PD  Y8, Y13, Y3
	VFMADD231PD  Y9, Y13, Y7
	ADDQ         R9, SI
	ADDQ         R9, DX
	DECQ         CX
	JNZ          loop

store:
	VADDPD  (DI), Y0, Y0
	VMOVUPD Y0, (DI)
	VADDPD  32(DI), Y4, Y4
	VMOVUPD Y4, 32(DI)
	ADDQ    R8, DI
	VADDPD  (DI), Y1, Y1
	VMOVUPD Y1, (DI)
	VADDPD  32(DI), Y5, Y5
	VMOVUPD Y5, 32(DI)
	ADDQ    R8, DI
	VADDPD  (DI), Y2, Y2
	VMOVUPD Y2, (DI)
	VADDPD  32(DI), Y6, Y6
	VMOVUPD Y6, 32(DI)
	ADDQ    R8, DI
	VADDPD  (DI), Y3, Y3
	VMOVUPD Y3, (DI)
	VADDPD  32(DI), Y7, Y7
	VMOVUPD Y7, 32(DI)
	VZEROUPPER
	RET
