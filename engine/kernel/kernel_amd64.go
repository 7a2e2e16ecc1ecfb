package kernel

import "golang.org/x/sys/cpu"

// useAVX says the AVX2/FMA kernels can run (and the OS saves the YMM
// registers, which cpu checks).
var useAVX = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// gramTile adds to the 4x8 tile at c (row stride ldc) the sums over rows r
// of ai[r·lda+u]·aj[r·lda+v], u < 4, v < 8.
//
//go:noescape
func gramTile(c *float64, ldc int, ai, aj *float64, lda, rows int)

// rowDots is RowDots' kernel over panels of four rows.
//
//go:noescape
func rowDots(out *float64, ldo int, x *float64, ldx int, cen *float64, d, panels int)

// dotsBelow is DotsBelow's kernel over panels of four rows.
//
//go:noescape
func dotsBelow(hits *uint32, x *float32, ldx int, q *float32, d int, nb, thr *float32, panels int) int

// dotRows is DotRows' kernel over panels of four rows and the first
// 4·quads values of each.
//
//go:noescape
func dotRows(out *float64, x *float64, ldx int, q *float64, quads, panels int)

// rbfRow is RBFRow's kernel over quads of four values; c is rbfConsts.
//
//go:noescape
func rbfRow(out, dots, sqb *float64, quads int, sqa, negGamma float64, c *float64)
