#include "textflag.h"

// func rbfRow(out, dots, sqb *float64, quads int, sqa, negGamma float64, c *float64)
//
// For each quad of four values: d = max(0, sqa + sqb − 2·dots), x = −γ·d,
// and out = e^x, computed as 2^k · e^r with k = round(x·log₂e) and
// r = x − k·ln2 (in two parts, so r is exact to a few ulp), e^r by its
// Taylor polynomial of degree 13 (|r| ≤ ln2/2: remainder below 1e-17) in
// Horner's form, 2^k by writing k + 1023 into the exponent bits. An x
// below −708 (where 2^k would not be a normal number) gives 0.
//
// c holds log₂e, ln2's high and low parts, −708, the bits of 1023<<52,
// then the Taylor coefficients 1/13!, 1/12!, ..., 1/1!, 1.
TEXT ·rbfRow(SB), NOSPLIT, $0-56
	MOVQ out+0(FP), DI
	MOVQ dots+8(FP), SI
	MOVQ sqb+16(FP), DX
	MOVQ quads+24(FP), CX
	MOVQ c+48(FP), R8

	TESTQ CX, CX
	JLE   done

	VBROADCASTSD sqa+32(FP), Y15
	VBROADCASTSD negGamma+40(FP), Y14
	VBROADCASTSD (R8), Y13   // log₂e
	VBROADCASTSD 8(R8), Y12  // ln2 high
	VBROADCASTSD 16(R8), Y11 // ln2 low
	VBROADCASTSD 24(R8), Y10 // −708
	VPBROADCASTQ 32(R8), Y8  // 1023 << 52
	VXORPD       Y9, Y9, Y9

quad:
	VMOVUPD (SI), Y0
	VMOVUPD (DX), Y1
	VADDPD  Y15, Y1, Y1  // ‖a‖² + ‖b‖²
	VADDPD  Y0, Y0, Y0   // 2a·b
	VSUBPD  Y0, Y1, Y1   // ‖a − b‖²
	VMAXPD  Y9, Y1, Y1   // no rounding below 0
	VMULPD  Y14, Y1, Y1  // x
	VMULPD  Y13, Y1, Y2
	VROUNDPD $0, Y2, Y2  // k
	VMOVAPD  Y1, Y3
	VFNMADD231PD Y12, Y2, Y3 // r = x − k·ln2 high
	VFNMADD231PD Y11, Y2, Y3 //     − k·ln2 low

	VBROADCASTSD 40(R8), Y4 // 1/13!
	VBROADCASTSD 48(R8), Y5
	VFMADD213PD  Y5, Y3, Y4
	VBROADCASTSD 56(R8), Y5
	VFMADD213PD  Y5, Y3, Y4
	VBROADCASTSD 64(R8), Y5
	VFMADD213PD  Y5, Y3, Y4
	VBROADCASTSD 72(R8), Y5
	VFMADD213PD  Y5, Y3, Y4
	VBROADCASTSD 80(R8), Y5
	VFMADD213PD  Y5, Y3, Y4
	VBROADCASTSD 88(R8), Y5
	VFMADD213PD  Y5, Y3, Y4
	VBROADCASTSD 96(R8), Y5
	VFMADD213PD  Y5, Y3, Y4
	VBROADCASTSD 104(R8), Y5
	VFMADD213PD  Y5, Y3, Y4
	VBROADCASTSD 112(R8), Y5
	VFMADD213PD  Y5, Y3, Y4
	VBROADCASTSD 120(R8), Y5
	VFMADD213PD  Y5, Y3, Y4
	VBROADCASTSD 128(R8), Y5
	VFMADD213PD  Y5, Y3, Y4
	VBROADCASTSD 136(R8), Y5
	VFMADD213PD  Y5, Y3, Y4
	VBROADCASTSD 144(R8), Y5
	VFMADD213PD  Y5, Y3, Y4 // e^r

	VCVTPD2DQY Y2, X6
	VPMOVSXDQ  X6, Y6
	VPSLLQ     $52, Y6, Y6
	VPADDQ     Y8, Y6, Y6 // 2^k
	VMULPD     Y6, Y4, Y4
	VCMPPD     $1, Y10, Y1, Y7 // x < −708
	VANDNPD    Y4, Y7, Y4
	VMOVUPD    Y4, (DI)

	ADDQ $32, SI
	ADDQ $32, DX
	ADDQ $32, DI
	DECQ CX
	JNZ  quad

done:
	VZEROUPPER
	RET
