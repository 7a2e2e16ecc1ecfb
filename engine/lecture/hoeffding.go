package lecture

import (
	"context"
	"math"
	"slices"

	"github.com/tealab/tealab/engine"
)

// Hoeffding's inequality against the exact binomial: a hypothesis of risk
// R misclassifies each of n training points with probability R, so the
// count k of training errors is Binomial(n, R) and the training error is
// R̂ = k/n. Shewchuk's lecture 23 plots that PMF for R = 25% at n = 20 and
// n = 500 and bounds Pr(|R̂ − R| > ε) ≤ 2e^(−2ε²n); over Π dichotomies
// the union bound asks for n ≥ ln(2Π/δ)/(2ε²).

// HoeffdingResult is the run: one sample per n, the tail against n, and
// the sample size the uniform bound asks for.
type HoeffdingResult struct {
	Risk        float64 `json:"risk"`
	Epsilon     float64 `json:"epsilon"`
	Delta       float64 `json:"delta"`
	Dichotomies float64 `json:"dichotomies"` // Π of the uniform bound
	// TieTolerance is how the strict inequality is read in floating
	// point: k counts in the tail when |k − nR| − nε > TieTolerance·max(1, n),
	// so that k = nR ± nε exactly (20·0.1 = 2) is not in it.
	TieTolerance float64           `json:"tie_tolerance"`
	Samples      []HoeffdingSample `json:"samples"`
	Curve        []HoeffdingPoint  `json:"curve"` // n = 1 … CurveMax, thinned
	CurveMax     int               `json:"curve_max"`
	// SampleSize is ⌈ln(2Π/δ)/(2ε²)⌉, SampleSizeExact the quotient itself.
	SampleSize      int     `json:"sample_size"`
	SampleSizeExact float64 `json:"sample_size_exact"`
	// ERMSampleSize is ⌈(2/ε²)·ln(2Π/δ)⌉: enough that the hypothesis of
	// least training error is within ε of the best of the Π in risk
	// (every R̂ within ε/2 of its R) — Verma's finite-class (Occam)
	// bound, with the 2 inside the logarithm its proof derives.
	ERMSampleSize      int     `json:"erm_sample_size"`
	ERMSampleSizeExact float64 `json:"erm_sample_size_exact"`
}

// HoeffdingSample is the training error's distribution at one n.
type HoeffdingSample struct {
	N int `json:"n"`
	// PMF[k] is Pr(k training errors), k = 0 … n (0 where it underflows).
	PMF     []float64 `json:"pmf"`
	Mean    float64   `json:"mean"` // of R̂ = k/n, from the PMF (R)
	SD      float64   `json:"sd"`   // of R̂, from the PMF (√(R(1−R)/n))
	Tail    float64   `json:"exact_tail"`
	Bound   float64   `json:"hoeffding_bound"` // 2e^(−2ε²n), may exceed 1
	Mode    int       `json:"mode"`            // the k of the largest PMF
	Uniform float64   `json:"uniform_epsilon"` // √(ln(2Π/δ)/(2n)): the ε the uniform bound gives at n
}

// HoeffdingPoint is the exact tail and the bound at one n.
type HoeffdingPoint struct {
	N     int     `json:"n"`
	Tail  float64 `json:"exact_tail"`
	Bound float64 `json:"hoeffding_bound"`
}

const (
	hoeffdingTie       = 1e-9
	hoeffdingMaxN      = 4   // each n needs a glyph
	hoeffdingMaxPoints = 200 // the curve's points
)

var hoeffdingN = ListKnob("n", "20,500", "training set sizes n: the PMF of the error count at each", 1, 1e5, true, false)

func init() {
	Register(Experiment{
		Name:    "hoeffding",
		Title:   "training error against risk: the binomial and Hoeffding's bound",
		Summary: "the exact binomial distribution of a hypothesis's training error for several n, and Pr(|R̂ − R| > ε) exact against Hoeffding's 2e^(−2ε²n), with the sample size the uniform bound over Π dichotomies asks for",
		Source:  "Shewchuk, Concise Machine Learning, lecture 23 (learning theory: Hoeffding's inequality, dichotomies); Verma, COMS 4771 notes (the Chernoff–Hoeffding bound)",
		Knobs: []engine.Param{
			hoeffdingN,
			{Name: "risk", Kind: engine.Float, Default: 0.25, Min: 0.001, Max: 0.999, Help: "the hypothesis's risk R: each training point is misclassified with this probability"},
			{Name: "epsilon", Kind: engine.Float, Default: 0.1, Min: 1e-3, Max: 1, Help: "ε of Pr(|R̂ − R| > ε)"},
			{Name: "delta", Kind: engine.Float, Default: 0.05, Min: 1e-12, Max: 0.999, Log: true, Help: "δ, the failure probability the sample size is for"},
			{Name: "dichotomies", Kind: engine.Float, Default: 1.0, Min: 1, Max: 1e300, Log: true, Help: "Π, the number of dichotomies the uniform bound is over (1: one hypothesis)"},
		},
		Run:    runHoeffding,
		Decode: DecodeAs[HoeffdingResult],
	})
}

// hoeffdingStirlerr is ln(k!) − ln(√(2π)·k^(k+½)·e^(−k)), Stirling's
// error, by its asymptotic series for k > 15 (lgamma below): no digits are
// lost to differences of large logarithms.
func hoeffdingStirlerr(k float64) float64 {
	if k <= 15 {
		lg, _ := math.Lgamma(k + 1)
		return lg - (k+0.5)*math.Log(k) + k - 0.5*math.Log(2*math.Pi)
	}
	const s0, s1, s2, s3, s4 = 1.0 / 12, 1.0 / 360, 1.0 / 1260, 1.0 / 1680, 1.0 / 1188
	kk := k * k
	switch {
	case k > 500:
		return (s0 - s1/kk) / k
	case k > 80:
		return (s0 - (s1-s2/kk)/kk) / k
	case k > 35:
		return (s0 - (s1-(s2-s3/kk)/kk)/kk) / k
	}
	return (s0 - (s1-(s2-(s3-s4/kk)/kk)/kk)/kk) / k
}

// hoeffdingBd0 is x·ln(x/m) + m − x, by a series when x is near m (where
// the plain form cancels).
func hoeffdingBd0(x, m float64) float64 {
	if math.Abs(x-m) < 0.1*(x+m) {
		v := (x - m) / (x + m)
		s := (x - m) * v
		ej := 2 * x * v
		v *= v
		for j := 1; j < 1000; j++ {
			ej *= v
			s1 := s + ej/float64(2*j+1)
			if s1 == s {
				return s1
			}
			s = s1
		}
		return s
	}
	return x*math.Log(x/m) + m - x
}

// HoeffdingLogPMF is ln Pr(k errors of n) for Binomial(n, p), by Loader's
// saddle-point form (as R's dbinom): Stirling's errors and bd0 instead of
// ln n! − ln k! − ln(n−k)!, so it keeps about 1e-14 relative accuracy for
// n up to 1e5 and beyond.
func HoeffdingLogPMF(n, k int, p float64) float64 {
	switch {
	case k < 0 || k > n:
		return math.Inf(-1)
	case k == 0:
		return float64(n) * math.Log1p(-p)
	case k == n:
		return float64(n) * math.Log(p)
	}
	fn, fk := float64(n), float64(k)
	q := 1 - p
	lc := hoeffdingStirlerr(fn) - hoeffdingStirlerr(fk) - hoeffdingStirlerr(fn-fk) - hoeffdingBd0(fk, fn*p) - hoeffdingBd0(fn-fk, fn*q)
	lf := math.Log(2*math.Pi) + math.Log(fk) + math.Log1p(-fk/fn)
	return lc - 0.5*lf
}

// HoeffdingBound is Hoeffding's 2e^(−2ε²n), not capped at 1.
func HoeffdingBound(n int, eps float64) float64 {
	return 2 * math.Exp(-2*eps*eps*float64(n))
}

// hoeffdingInTail says whether k errors of n lie strictly beyond ε.
func hoeffdingInTail(n, k int, risk, eps float64) bool {
	fn := float64(n)
	return math.Abs(float64(k)-fn*risk)-fn*eps > hoeffdingTie*math.Max(1, fn)
}

// HoeffdingTail is the exact Pr(|k/n − R| > ε) for k ~ Binomial(n, R):
// each tail summed outward from its edge, where the PMF is largest, until
// the terms stop adding to the sum (the PMF falls monotonically away from
// its mode, and each edge lies on the far side of the mode).
func HoeffdingTail(n int, risk, eps float64) float64 {
	fn := float64(n)
	lower := int(math.Floor(fn * (risk - eps))) // the last k that may be below
	for lower >= 0 && !hoeffdingInTail(n, lower, risk, eps) {
		lower--
	}
	upper := max(0, int(math.Ceil(fn*(risk+eps))))
	for upper <= n && !hoeffdingInTail(n, upper, risk, eps) {
		upper++
	}
	sum := 0.0
	add := func(k int) bool {
		t := math.Exp(HoeffdingLogPMF(n, k, risk))
		sum += t
		return t > 1e-18*sum
	}
	for k := lower; k >= 0 && add(k); k-- {
	}
	for k := upper; k <= n && add(k); k++ {
	}
	return math.Min(sum, 1)
}

// HoeffdingSampleSize is ln(2Π/δ)/(2ε²) and its ceiling: the n at which
// the uniform bound 2Π·e^(−2ε²n) reaches δ. The ceiling forgives a
// quotient a rounding error above a whole number.
func HoeffdingSampleSize(eps, delta, pi float64) (int, float64) {
	x := (math.Ln2 + math.Log(pi) - math.Log(delta)) / (2 * eps * eps)
	return int(math.Ceil(x * (1 - 1e-12))), x
}

func hoeffdingSample(n int, risk, eps, delta, pi float64) HoeffdingSample {
	s := HoeffdingSample{N: n, PMF: make([]float64, n+1), Bound: HoeffdingBound(n, eps)}
	fn := float64(n)
	var mean float64
	for k := range s.PMF {
		s.PMF[k] = math.Exp(HoeffdingLogPMF(n, k, risk))
		if s.PMF[k] > s.PMF[s.Mode] {
			s.Mode = k
		}
		mean += s.PMF[k] * float64(k) / fn
		if hoeffdingInTail(n, k, risk, eps) {
			s.Tail += s.PMF[k]
		}
	}
	var v float64
	for k, p := range s.PMF {
		d := float64(k)/fn - mean
		v += p * d * d
	}
	s.Mean, s.SD = mean, math.Sqrt(v)
	s.Tail = math.Min(s.Tail, 1)
	s.Uniform = math.Sqrt((math.Ln2 + math.Log(pi) - math.Log(delta)) / (2 * fn))
	return s
}

// hoeffdingCurveNs is n = 1 … top, at most hoeffdingMaxPoints of them
// evenly spaced, with every n of the knob among them.
func hoeffdingCurveNs(top int, ns []int) []int {
	var out []int
	for i := range hoeffdingMaxPoints - len(ns) {
		out = append(out, 1+int(math.Round(float64(i)*float64(top-1)/float64(hoeffdingMaxPoints-len(ns)-1))))
	}
	out = append(out, ns...)
	slices.Sort(out)
	return slices.Compact(out)
}

func runHoeffding(ctx context.Context, in In, show func(Frame)) (any, error) {
	v := in.Values
	ns := Ints(v, hoeffdingN)
	ns = slices.Compact(slices.Sorted(slices.Values(ns)))
	if len(ns) > hoeffdingMaxN {
		return nil, engine.Limitf("%d values of n but the picture has %d glyphs for them: give at most %d", len(ns), hoeffdingMaxN, hoeffdingMaxN)
	}
	res := HoeffdingResult{Risk: v.Float("risk"), Epsilon: v.Float("epsilon"), Delta: v.Float("delta"), Dichotomies: v.Float("dichotomies"), TieTolerance: hoeffdingTie}
	res.SampleSize, res.SampleSizeExact = HoeffdingSampleSize(res.Epsilon, res.Delta, res.Dichotomies)
	res.ERMSampleSize, res.ERMSampleSizeExact = HoeffdingSampleSize(res.Epsilon/2, res.Delta, res.Dichotomies)
	res.CurveMax = max(2*ns[len(ns)-1], 400)
	curve := hoeffdingCurveNs(res.CurveMax, ns)
	total := len(ns) + len(curve)
	for i, n := range ns {
		if err := ctx.Err(); err != nil {
			return &res, err
		}
		next := res
		next.Samples = append(slices.Clone(res.Samples), hoeffdingSample(n, res.Risk, res.Epsilon, res.Delta, res.Dichotomies))
		res = next
		show(Frame{Result: &next, Done: i + 1, Total: total})
	}
	var pts []HoeffdingPoint
	for i, n := range curve {
		if err := ctx.Err(); err != nil {
			out := res
			out.Curve = pts
			return &out, err
		}
		pts = append(pts, HoeffdingPoint{N: n, Tail: HoeffdingTail(n, res.Risk, res.Epsilon), Bound: HoeffdingBound(n, res.Epsilon)})
		if (i+1)%50 == 0 || i == len(curve)-1 {
			out := res
			out.Curve = slices.Clone(pts)
			show(Frame{Result: &out, Done: len(ns) + i + 1, Total: total})
		}
	}
	res.Curve = pts
	return &res, nil
}
