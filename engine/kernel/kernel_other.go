//go:build !amd64

package kernel

const useAVX = false

func gramTile(c *float64, ldc int, ai, aj *float64, lda, rows int) {
	panic("kernel: no AVX tile on this platform")
}

func rowDots(out *float64, ldo int, x *float64, ldx int, cen *float64, d, panels int) {
	panic("kernel: no AVX tile on this platform")
}

func dotsBelow(hits *uint32, x *float32, ldx int, q *float32, d int, nb, thr *float32, panels int) int {
	panic("kernel: no AVX tile on this platform")
}

func dotRows(out *float64, x *float64, ldx int, q *float64, quads, panels int) {
	panic("kernel: no AVX tile on this platform")
}

func rbfRow(out, dots, sqb *float64, quads int, sqa, negGamma float64, c *float64) {
	panic("kernel: no AVX tile on this platform")
}
