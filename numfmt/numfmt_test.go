package numfmt

import (
	"math"
	"strconv"
	"testing"
)

func TestFormats(t *testing.T) {
	nan, inf, tenth := math.NaN(), math.Inf(1), 0.1
	cases := []struct {
		name string
		f    func(float64) string
		in   float64
		want string
	}{
		{"score", Score, 0.96666666, "0.967"},
		{"score", Score, 0, "0"},
		{"score", Score, 1, "1.000"},
		{"score", Score, 12345.678, "12300"},
		{"score", Score, 1234567.8, "1.23e6"},
		{"score", Score, 0.00012345, "0.000123"},
		{"score", Score, 1.5e-7, "1.5e-7"},
		{"score", Score, -0.0001, "-0.0001"},
		{"score", Score, nan, "n/a"},
		{"score", Score, -inf, "-Inf"},
		{"fixed", func(v float64) string { return Fixed(v, 2) }, -0.001, "0.00"},
		{"param", Param, 1e6, "1e6"},
		{"param", Param, 100000, "1e5"},
		{"param", Param, 10000, "10000"},
		{"param", Param, 0.001, "0.001"},
		{"param", Param, 1e-4, "0.0001"},
		{"param", Param, 2.5e-7, "2.5e-7"},
		{"param", Param, 1e-15, "1e-15"},
		{"param", Param, tenth + 0.2, "0.30000000000000004"},
		{"param", Param, 9007199254740992, "9.007199254740992e15"},
		{"param", Param, -3, "-3"},
		{"value", Value, 150, "150"},
		{"value", Value, 2.345678, "2.346"},
		{"value", Value, 123456.7, "123500"},
		{"value", Value, 1e20, "1e20"},
		{"sig", func(v float64) string { return Sig(v, 3) }, 9.007199254740992e15, "9.01e15"},
		{"sig", func(v float64) string { return Sig(v, 3) }, 0.5, "0.5"},
		{"sig", func(v float64) string { return Sig(v, 3) }, 123456, "123000"},
		{"seconds", Seconds, 0.00085, "850 µs"},
		{"seconds", Seconds, 0.0000012, "1.2 µs"},
		{"seconds", Seconds, 0.0123, "12 ms"},
		{"seconds", Seconds, 1.234, "1.2 s"},
		{"seconds", Seconds, 42.4, "42 s"},
		{"seconds", Seconds, 185, "3m05s"},
		{"seconds", Seconds, 7440, "2h04m"},
		{"seconds", Seconds, 0, "0 s"},
		{"seconds", Seconds, -1, "n/a"},
		{"seconds", Seconds, 3e-9, "3 ns"},
		{"percent", Percent, 0.2, "20%"},
		{"percent", Percent, 0.125, "12.5%"},
	}
	for _, c := range cases {
		if got := c.f(c.in); got != c.want {
			t.Errorf("%s(%v) = %q, want %q", c.name, c.in, got, c.want)
		}
	}
}

// Param must give back exactly the value it formats: a range printed from
// it can be typed back in.
func TestParamRoundTrips(t *testing.T) {
	for _, v := range []float64{1e-15, 3e-9, 0.1, 1.0 / 3, 2, 99999, 1e5, 123456.789, 1 << 53, 1e300, -7.25e-5} {
		got, err := strconv.ParseFloat(Param(v), 64)
		if err != nil || got != v {
			t.Errorf("Param(%v) = %q parses back as %v, %v", v, Param(v), got, err)
		}
	}
}

func TestCount(t *testing.T) {
	for _, c := range []struct {
		n    int
		noun string
		want string
	}{{1, "fold", "1 fold"}, {0, "fold", "0 folds"}, {3, "class", "3 classes"}, {2, "entry", "2 entries"}, {2, "day", "2 days"}, {5, "fit", "5 fits"}, {2, "epoch", "2 epochs"}, {2, "batch", "2 batches"}, {4, "leaf", "4 leaves"}} {
		if got := Count(c.n, c.noun); got != c.want {
			t.Errorf("Count(%d, %q) = %q, want %q", c.n, c.noun, got, c.want)
		}
	}
}

func TestDenoise(t *testing.T) {
	if got := Denoise(-6.47e-19, 0.05); got != 0 {
		t.Errorf("noise beside 0.05: %v", got)
	}
	if got := Denoise(1e-6, 0.05); got != 1e-6 {
		t.Errorf("a small real value: %v", got)
	}
	if got := Denoise(0.3, 0); got != 0.3 {
		t.Errorf("no scale: %v", got)
	}
}

// a generator's seed range read 0…9.007199254740992e15.
func TestBound(t *testing.T) {
	for v, want := range map[float64]string{1 << 53: "2^53", 1 << 20: "2^20", 1e6: "1e6", 100000: "1e5", 0.5: "0.5", 3 << 30: "3.221225472e9"} {
		if got := Bound(v); got != want {
			t.Errorf("Bound(%v) = %q, want %q", v, got, want)
		}
	}
}

func TestOrdinal(t *testing.T) {
	for n, want := range map[int]string{1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 11: "11th", 12: "12th", 13: "13th", 21: "21st", 22: "22nd", 101: "101st", 111: "111th"} {
		if got := Ordinal(n); got != want {
			t.Errorf("Ordinal(%d) = %q, want %q", n, got, want)
		}
	}
}

// An sd of 0 rendered as a bare "±" once its leading zero was trimmed.
func TestSpread(t *testing.T) {
	for sd, want := range map[float64]string{0: "± 0", 0.037: "±.037", 0.0004: "±.0004", 1.25: "±1.250"} {
		if got := Spread(sd); got != want {
			t.Errorf("Spread(%v) = %q, want %q", sd, got, want)
		}
	}
}
