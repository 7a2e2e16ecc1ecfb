#include "textflag.h"

// func dotRows(out *float64, x *float64, ldx int, q *float64, quads, panels int)
//
// For each panel of four rows of x (row stride ldx), out gets the four dot
// products of the rows' first 4·quads values with q's: one FMA a row and
// quad, q's quad loaded once for the four rows; the four accumulators are
// summed across their lanes at the end of the panel (two horizontal adds
// and a swap of halves give the four sums in one register).
TEXT ·dotRows(SB), NOSPLIT, $0-48
	MOVQ out+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ ldx+16(FP), R10
	MOVQ q+24(FP), DX
	MOVQ quads+32(FP), CX
	MOVQ panels+40(FP), BX
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
	MOVQ   SI, AX
	MOVQ   DX, R13
	MOVQ   CX, R14

quad:
	VMOVUPD     (R13), Y8
	VFMADD231PD (AX), Y8, Y0
	VFMADD231PD (AX)(R10*1), Y8, Y1
	VFMADD231PD (AX)(R11*1), Y8, Y2
	VFMADD231PD (AX)(R12*1), Y8, Y3
	ADDQ        $32, AX
	ADDQ        $32, R13
	DECQ        R14
	JNZ         quad

	VHADDPD    Y1, Y0, Y4       // row 0 and 1: pair sums of each half
	VHADDPD    Y3, Y2, Y5       // rows 2 and 3
	VPERM2F128 $0x20, Y5, Y4, Y6 // the low halves' sums of rows 0-3
	VPERM2F128 $0x31, Y5, Y4, Y7 // the high halves'
	VADDPD     Y7, Y6, Y6
	VMOVUPD    Y6, (DI)

	ADDQ $32, DI
	LEAQ (SI)(R10*4), SI
	DECQ BX
	JNZ  panel

done:
	VZEROUPPER
	RET
