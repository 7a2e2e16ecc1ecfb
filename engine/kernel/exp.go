package kernel

import "math"

// RBFRow sets out[j] = exp(−γ·max(0, sqa + sqb[j] − 2·dots[j])) for
// j < len(out): a row of Gaussian kernel values from one point's squared
// norm sqa, the others' squared norms and the dot products with them
// (out may be dots). The assembly kernel takes four values at a time; both
// paths agree with math.Exp to about 1e-15 relative, and give 0 where the
// exponent is below −708 (e^−708 is 3e−308).
func RBFRow(out, dots, sqb []float64, sqa, gamma float64) {
	n := len(out)
	if n == 0 {
		return
	}
	dots, sqb = dots[:n], sqb[:n]
	done := 0
	if useAVX && n >= 4 {
		done = n &^ 3
		rbfRow(&out[0], &dots[0], &sqb[0], done/4, sqa, -gamma, &rbfConsts[0])
	}
	for j := done; j < n; j++ {
		d := max(sqa+sqb[j]-2*dots[j], 0)
		out[j] = Exp(-gamma * d)
	}
}

// rbfConsts are rbfRow's constants: log₂e, ln2 in a high and a low part,
// the least exponent, the bits of 1023<<52, and the Taylor coefficients of
// e^r from 1/13! down to 1.
var rbfConsts = func() (c [19]float64) {
	c[0], c[1], c[2], c[3] = math.Log2E, 6.93147180369123816490e-01, 1.90821492927058770002e-10, -708
	c[4] = math.Float64frombits(1023 << 52)
	fact := 1.0 // n!
	for n := 0; n <= 13; n++ {
		if n > 0 {
			fact *= float64(n)
		}
		c[18-n] = 1 / fact
	}
	return c
}()

// Exp is e^x within a couple of units in the last place of math.Exp, and
// faster where many are computed in a row (a kernel row): x = (k/64) ln2 +
// r with |r| ≤ ln2/128, so e^x = 2^⌊k/64⌋ · 2^((k mod 64)/64) · e^r, the
// middle factor from a table and e^r from its Taylor polynomial of degree 5
// (remainder below 4e-17).
func Exp(x float64) float64 {
	if !(x > -700 && x < 700) {
		return math.Exp(x)
	}
	const ln2Hi, ln2Lo = 6.93147180369123816490e-01 / 64, 1.90821492927058770002e-10 / 64
	t := x * (64 * math.Log2E)
	ki := int64(t + 0.5)
	if t < 0 {
		ki = int64(t - 0.5)
	}
	k := float64(ki)
	r := (x - k*ln2Hi) - k*ln2Lo
	r2 := r * r
	p := (1 + r) + r2*((0.5+r*(1.0/6))+r2*(1.0/24+r*(1.0/120)))
	return p * exp2Table[ki&63] * math.Float64frombits(uint64((ki>>6)+1023)<<52)
}

// exp2Table holds 2^(j/64), j = 0..63.
var exp2Table = func() (t [64]float64) {
	for j := range t {
		t[j] = math.Exp2(float64(j) / 64)
	}
	return t
}()
