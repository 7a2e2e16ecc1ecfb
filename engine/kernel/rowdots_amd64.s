#include "textflag.h"

// func rowDots(out *float64, ldo int, x *float64, ldx int, cen *float64, d, panels int)
//
// For each panel of four rows of x (row stride ldx), out's four rows (row
// stride ldo) get the dot products with the eight columns of cen (d x 8,
// row-major): out[u·ldo+v] = Σ_j x[u·ldx+j]·cen[j·8+v]. The rows are read
// where they lie, one contiguous stream; the centres stay in L1. Eight
// accumulators (Y0-Y7) keep two FMAs a cycle from waiting on one another.
TEXT ·rowDots(SB), NOSPLIT, $0-56
	MOVQ out+0(FP), DI
	MOVQ ldo+8(FP), R8
	MOVQ x+16(FP), SI
	MOVQ ldx+24(FP), R10
	MOVQ cen+32(FP), DX
	MOVQ d+40(FP), CX
	MOVQ panels+48(FP), BX
	SHLQ $3, R8
	SHLQ $3, R10
	LEAQ (R10)(R10*1), R11 // two rows
	LEAQ (R11)(R10*1), R12 // three rows

	TESTQ BX, BX
	JLE   done
	TESTQ CX, CX
	JLE   done

panel:
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	MOVQ   SI, AX
	MOVQ   DX, R13
	MOVQ   CX, R14

feature:
	VMOVUPD      (R13), Y8
	VMOVUPD      32(R13), Y9
	VBROADCASTSD (AX), Y10
	VFMADD231PD  Y8, Y10, Y0
	VFMADD231PD  Y9, Y10, Y4
	VBROADCASTSD (AX)(R10*1), Y11
	VFMADD231PD  Y8, Y11, Y1
	VFMADD231PD  Y9, Y11, Y5
	VBROADCASTSD (AX)(R11*1), Y12
	VFMADD231PD  Y8, Y12, Y2
	VFMADD231PD  Y9, Y12, Y6
	VBROADCASTSD (AX)(R12*1), Y13
	VFMADD231PD  Y8, Y13, Y3
	VFMADD231PD  Y9, Y13, Y7
	ADDQ         $8, AX
	ADDQ         $64, R13
	DECQ         R14
	JNZ          feature

	MOVQ    DI, AX
	VMOVUPD Y0, (AX)
	VMOVUPD Y4, 32(AX)
	ADDQ    R8, AX
	VMOVUPD Y1, (AX)
	VMOVUPD Y5, 32(AX)
	ADDQ    R8, AX
	VMOVUPD Y2, (AX)
	VMOVUPD Y6, 32(AX)
	ADDQ    R8, AX
	VMOVUPD Y3, (AX)
	VMOVUPD Y7, 32(AX)

	LEAQ (DI)(R8*4), DI
	LEAQ (SI)(R10*4), SI
	DECQ BX
	JNZ  panel

done:
	VZEROUPPER
	RET
