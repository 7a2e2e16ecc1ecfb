package datasets

import "math"

// MeanStd returns the mean and population standard deviation of the
// non-NaN values of xs (NaN for both when there are none). Values near the
// largest float64 do not overflow: they are summed in units of the largest
// magnitude when that is above 1e300, so the mean of {-1e308, 1e308} is 0
// and its spread 1e308, not NaN and +Inf.
func MeanStd(xs []float64) (mean, std float64) {
	unit, n := 0.0, 0
	for _, v := range xs {
		if !math.IsNaN(v) {
			unit = math.Max(unit, math.Abs(v))
			n++
		}
	}
	if n == 0 {
		return math.NaN(), math.NaN()
	}
	if unit < hugeValue {
		unit = 1
	}
	for _, v := range xs {
		if !math.IsNaN(v) {
			mean += v / unit
		}
	}
	mean /= float64(n)
	ss := 0.0
	for _, v := range xs {
		if !math.IsNaN(v) {
			d := v/unit - mean
			ss += d * d
		}
	}
	return mean * unit, math.Sqrt(ss/float64(n)) * unit
}
