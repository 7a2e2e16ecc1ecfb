package datasets

import "math"

// MeanStd returns the mean and population standard deviation of the
// non-NaN values of xs (NaN for both when there are none). Neither values
// near the largest float64 nor values near the smallest overflow or
// underflow: they are summed in units of their largest magnitude
// (ScaleUnit), so the mean of {-1e308, 1e308} is 0 and its spread 1e308,
// and the spread of {1e-170, 2e-170} is 5e-171, not 0.
func MeanStd(xs []float64) (mean, std float64) {
	n := 0
	for _, v := range xs {
		if !math.IsNaN(v) {
			n++
		}
	}
	if n == 0 {
		return math.NaN(), math.NaN()
	}
	unit := ScaleUnit(xs...)
	inv := 1 / unit
	for _, v := range xs {
		if !math.IsNaN(v) {
			mean += v * inv
		}
	}
	mean /= float64(n)
	ss := 0.0
	for _, v := range xs {
		if !math.IsNaN(v) {
			d := v*inv - mean
			ss += d * d
		}
	}
	return mean * unit, math.Sqrt(ss/float64(n)) * unit
}

// ScaleUnit is the unit in which to sum the squares of xs: the power of two
// at or below their largest magnitude (NaN and infinities left out; 1 when
// none is left or all are 0), never below the smallest normal float64, so
// that its inverse is finite. In that unit every value is below 2 in
// magnitude, so squares and sums neither overflow (values near 1e160) nor
// underflow (near 1e-170); and as a power of two it rounds nothing, so
// values of ordinary size give exactly the results they would unscaled.
func ScaleUnit(xs ...float64) float64 {
	top := 0.0
	for _, v := range xs {
		if a := math.Abs(v); a > top && a <= math.MaxFloat64 { // NaN compares false
			top = a
		}
	}
	if top == 0 {
		return 1
	}
	_, exp := math.Frexp(top) // top = frac · 2^exp, frac in [0.5, 1)
	return math.Ldexp(1, max(exp-1, -1022))
}
