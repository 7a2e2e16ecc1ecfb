#include "textflag.h"

// func dotsBelow(hits *uint32, x *float32, ldx int, q *float32, d int, nb, thr *float32, panels int) int
//
// For each panel of four rows of x (row stride ldx), the sixteen sums
// s[v] = nb[i] + Σ_j x[i·ldx+j]·q[j·16+v] of each row i are compared with
// thr[v]; a row with any s[v] <= thr[v] writes uint32(i)<<16 | mask to
// hits[count] and counts (branchless: every row writes, only hits count).
// Eight accumulators (Y0-Y7: rows 0-3, queries 0-7 and 8-15) keep two FMAs
// a cycle busy; per feature two loads of q and four broadcasts of x feed
// eight FMAs (64 multiply-adds). A NaN in nb or thr never compares.
TEXT ·dotsBelow(SB), NOSPLIT, $0-72
	MOVQ hits+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ ldx+16(FP), R10
	MOVQ q+24(FP), DX
	MOVQ d+32(FP), CX
	MOVQ nb+40(FP), R8
	MOVQ thr+48(FP), R9
	MOVQ panels+56(FP), BX
	XORQ R14, R14 // hits so far
	TESTQ BX, BX
	JLE   done
	TESTQ CX, CX
	JLE   done
	VMOVUPS (R9), Y14
	VMOVUPS 32(R9), Y15
	SHLQ    $2, R10
	LEAQ    (R10)(R10*1), R11 // two rows
	LEAQ    (R11)(R10*1), R12 // three rows
	SHLQ    $6, CX
	ADDQ    DX, CX            // the end of q
	XORQ    R13, R13          // the panel's first row

panel:
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	MOVQ   SI, AX
	MOVQ   DX, R9

feature:
	VMOVUPS      (R9), Y8
	VMOVUPS      32(R9), Y9
	VBROADCASTSS (AX), Y10
	VFMADD231PS  Y8, Y10, Y0
	VFMADD231PS  Y9, Y10, Y4
	VBROADCASTSS (AX)(R10*1), Y11
	VFMADD231PS  Y8, Y11, Y1
	VFMADD231PS  Y9, Y11, Y5
	VBROADCASTSS (AX)(R11*1), Y12
	VFMADD231PS  Y8, Y12, Y2
	VFMADD231PS  Y9, Y12, Y6
	VBROADCASTSS (AX)(R12*1), Y13
	VFMADD231PS  Y8, Y13, Y3
	VFMADD231PS  Y9, Y13, Y7
	ADDQ         $4, AX
	ADDQ         $64, R9
	CMPQ         R9, CX
	JNE          feature

// BELOW compares row r of the panel (accumulators LO, HI) and records it.
#define BELOW(r, LO, HI) \
	VBROADCASTSS (r*4)(R8)(R13*4), Y8; \
	VADDPS       Y8, LO, LO; \
	VADDPS       Y8, HI, HI; \
	VCMPPS       $0x12, Y14, LO, LO; \
	VCMPPS       $0x12, Y15, HI, HI; \
	VMOVMSKPS    LO, AX; \
	VMOVMSKPS    HI, R9; \
	SHLL         $8, R9; \
	ORL          R9, AX; \
	LEAL         r(R13), R9; \
	SHLL         $16, R9; \
	ORL          AX, R9; \
	MOVL         R9, (DI)(R14*4); \
	CMPL         AX, $1; \
	SBBQ         R9, R9; \
	INCQ         R9; \
	ADDQ         R9, R14

	BELOW(0, Y0, Y4)
	BELOW(1, Y1, Y5)
	BELOW(2, Y2, Y6)
	BELOW(3, Y3, Y7)

	ADDQ $4, R13
	LEAQ (SI)(R10*4), SI
	DECQ BX
	JNZ  panel

done:
	VZEROUPPER
	MOVQ R14, ret+64(FP)
	RET
