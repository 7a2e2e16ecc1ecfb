package svm

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/kernel"
)

// kernelValues sets kv[s] = k(SV_s, x).
func (fit *svcFit) kernelValues(kv, x []float64) []float64 {
	fit.sv.eval(kv, x, kernel.Dot(x, x))
	return kv
}

// pairValue is f(x) of pair p given the kernel values kv.
func (fit *svcFit) pairValue(p *svcPair, x, kv []float64) float64 {
	if p.W != nil {
		return kernel.Dot(p.W, x) - p.Rho
	}
	var s float64
	for t, sv := range p.SV {
		s += p.Coef[t] * kv[sv]
	}
	return s - p.Rho
}

// eachRow calls do with every row of X, its pair values and the index of
// the row, after checking the model is fitted and X is as wide as its rows.
func (m *SVC) eachRow(X mat.Matrix, do func(i int, dec []float64)) error {
	fit := m.fit
	if !m.Fitted {
		return engine.ErrNotFitted
	}
	n, d := X.Dims()
	if d != fit.sv.d {
		return fmt.Errorf("%s: got %d features, fitted on %d", svcName, d, fit.sv.d)
	}
	x := make([]float64, d)
	kv := make([]float64, len(fit.svRow))
	dec := make([]float64, len(fit.pairs))
	// The linear solvers' pairs predict from w: no kernel values needed.
	expand := slices.ContainsFunc(fit.pairs, func(p svcPair) bool { return p.W == nil })
	for i := 0; i < n; i++ {
		mat.Row(x, i, X)
		if expand {
			fit.kernelValues(kv, x)
		}
		for p := range fit.pairs {
			dec[p] = fit.pairValue(&fit.pairs[p], x, kv)
		}
		do(i, dec)
	}
	return nil
}

// votes counts each class's one-vs-one wins.
func (fit *svcFit) votes(dec []float64, votes []int) {
	clear(votes)
	for p, pr := range fit.pairs {
		if dec[p] > 0 {
			votes[pr.Pos]++
		} else {
			votes[pr.Neg]++
		}
	}
}

// Predict implements engine.Predictor: the class with the most votes, the
// lowest of those tied, as LIBSVM.
func (m *SVC) Predict(X mat.Matrix) ([]float64, error) {
	n, _ := X.Dims()
	out := make([]float64, n)
	var votes []int
	err := m.eachRow(X, func(i int, dec []float64) {
		if votes == nil {
			votes = make([]int, m.fit.classes)
		}
		m.fit.votes(dec, votes)
		best := m.fit.present[0]
		for _, c := range m.fit.present {
			if votes[c] > votes[best] {
				best = c
			}
		}
		out[i] = float64(best)
	})
	return out, err
}

// DecisionFunction implements engine.Scorer. With two classes −f and f
// (f > 0 for the second class); with more, scikit-learn's one-vs-rest
// shape of one-vs-one votes: votes plus the summed decision values
// squashed into (−⅓, ⅓). Classes absent from training score −MaxFloat64.
func (m *SVC) DecisionFunction(X mat.Matrix) (*mat.Dense, error) {
	n, _ := X.Dims()
	if !m.Fitted {
		return nil, engine.ErrNotFitted
	}
	S := mat.NewDense(n, m.fit.classes, nil)
	var votes []int
	conf := make([]float64, m.fit.classes)
	err := m.eachRow(X, func(i int, dec []float64) {
		row := S.RawRowView(i)
		if m.fit.classes == 2 && len(dec) == 1 {
			row[0], row[1] = dec[0], -dec[0]
			return
		}
		if votes == nil {
			votes = make([]int, m.fit.classes)
		}
		m.fit.votes(dec, votes)
		clear(conf)
		for p, pr := range m.fit.pairs {
			conf[pr.Pos] += dec[p]
			conf[pr.Neg] -= dec[p]
		}
		for c := range row {
			row[c] = -math.MaxFloat64
		}
		for _, c := range m.fit.present {
			row[c] = float64(votes[c]) + conf[c]/(3*(math.Abs(conf[c])+1))
		}
	})
	if err != nil {
		return nil, err
	}
	return S, nil
}

// Margin implements engine.Marginer for two classes: f(x), positive for
// the second class.
func (m *SVC) Margin(X mat.Matrix) ([]float64, error) {
	if m.Fitted && (m.fit.classes != 2 || len(m.fit.pairs) != 1) {
		return nil, fmt.Errorf("%s: a margin is one decision value, of two classes; these data have %d", svcName, m.fit.classes)
	}
	n, _ := X.Dims()
	out := make([]float64, n)
	err := m.eachRow(X, func(i int, dec []float64) { out[i] = -dec[0] })
	return out, err
}

// PredictProba implements engine.Prober: Platt's sigmoid of each pair's
// decision value, coupled into class probabilities (Wu, Lin & Weng, JMLR
// 5, 2004, as LIBSVM's multiclass_probability).
func (m svcProba) PredictProba(X mat.Matrix) (*mat.Dense, error) {
	n, _ := X.Dims()
	if !m.Fitted {
		return nil, engine.ErrNotFitted
	}
	k := len(m.fit.present)
	P := mat.NewDense(n, m.fit.classes, nil)
	r := make([][]float64, k)
	for a := range r {
		r[a] = make([]float64, k)
	}
	at := make([]int, m.fit.classes)
	for j, c := range m.fit.present {
		at[c] = j
	}
	p := make([]float64, k)
	err := m.eachRow(X, func(i int, dec []float64) {
		for t, pr := range m.fit.pairs {
			q := math.Min(math.Max(plattPredict(dec[t], pr.ProbA, pr.ProbB), 1e-7), 1-1e-7)
			r[at[pr.Pos]][at[pr.Neg]], r[at[pr.Neg]][at[pr.Pos]] = q, 1-q
		}
		svcCoupleProbabilities(r, p)
		row := P.RawRowView(i)
		for j, c := range m.fit.present {
			row[c] = p[j]
		}
	})
	if err != nil {
		return nil, err
	}
	return P, nil
}

// SupportVectors implements engine.SupportVectorer, with LIBSVM's sv_coef
// layout: a vector of class c has, for the pair of c and class o, its
// coefficient at o's place among the other classes.
func (m *SVC) SupportVectors() *engine.SupportVectors {
	fit := m.fit
	if fit == nil {
		return nil
	}
	k := len(fit.present)
	at := make([]int, fit.classes)
	for j, c := range fit.present {
		at[c] = j
	}
	sv := &engine.SupportVectors{Features: fit.features, Rows: fit.svRow, Kernel: fit.kernel.String()}
	sv.Class = make([]string, len(fit.svRow))
	sv.X = make([][]float64, len(fit.svRow))
	sv.Coef = make([][]float64, len(fit.svRow))
	sv.AtBound = make([]bool, len(fit.svRow))
	for s := range fit.svRow {
		sv.Class[s] = strconv.Itoa(fit.svClass[s])
		if fit.names != nil {
			sv.Class[s] = fit.names[fit.svClass[s]]
		}
		sv.X[s] = append([]float64(nil), fit.sv.row(s)...)
		sv.Coef[s] = make([]float64, max(k-1, 1))
	}
	for _, p := range fit.pairs {
		for t, s := range p.SV {
			own, other := at[p.Pos], at[p.Neg]
			if fit.svClass[s] == p.Neg {
				own, other = other, own
			}
			col := other
			if other > own {
				col--
			}
			sv.Coef[s][col] = p.Coef[t]
			sv.AtBound[s] = sv.AtBound[s] || p.AtBound[t]
		}
	}
	return sv
}

// plattPredict is 1/(1 + exp(A f + B)), computed without overflow.
func plattPredict(f, A, B float64) float64 {
	t := f*A + B
	if t >= 0 {
		return math.Exp(-t) / (1 + math.Exp(-t))
	}
	return 1 / (1 + math.Exp(t))
}

// plattTrain fits Platt's A, B to decision values and labels ±1 by
// Newton's method with backtracking on the regularised targets (Lin, Lin
// & Weng, Machine Learning 68, 2007; LIBSVM's sigmoid_train).
func plattTrain(dec, y []float64) (float64, float64) {
	var prior1, prior0 float64
	for _, v := range y {
		if v > 0 {
			prior1++
		} else {
			prior0++
		}
	}
	hi, lo := (prior1+1)/(prior1+2), 1/(prior0+2)
	t := make([]float64, len(y))
	for i, v := range y {
		t[i] = lo
		if v > 0 {
			t[i] = hi
		}
	}
	value := func(A, B float64) float64 {
		var f float64
		for i, d := range dec {
			z := d*A + B
			if z >= 0 {
				f += t[i]*z + math.Log1p(math.Exp(-z))
			} else {
				f += (t[i]-1)*z + math.Log1p(math.Exp(z))
			}
		}
		return f
	}
	A, B := 0.0, math.Log((prior0+1)/(prior1+1))
	fval := value(A, B)
	for iter := 0; iter < 100; iter++ {
		h11, h22, h21, g1, g2 := 1e-12, 1e-12, 0.0, 0.0, 0.0
		for i, d := range dec {
			z := d*A + B
			var p, q float64
			if z >= 0 {
				p, q = math.Exp(-z)/(1+math.Exp(-z)), 1/(1+math.Exp(-z))
			} else {
				p, q = 1/(1+math.Exp(z)), math.Exp(z)/(1+math.Exp(z))
			}
			d2 := p * q
			h11 += d * d * d2
			h22 += d2
			h21 += d * d2
			d1 := t[i] - p
			g1 += d * d1
			g2 += d1
		}
		if math.Abs(g1) < 1e-5 && math.Abs(g2) < 1e-5 {
			break
		}
		det := h11*h22 - h21*h21
		dA, dB := -(h22*g1-h21*g2)/det, -(-h21*g1+h11*g2)/det
		gd := g1*dA + g2*dB
		step := 1.0
		for ; step >= 1e-10; step /= 2 {
			nA, nB := A+step*dA, B+step*dB
			if nf := value(nA, nB); nf < fval+1e-4*step*gd {
				A, B, fval = nA, nB, nf
				break
			}
		}
		if step < 1e-10 {
			break
		}
	}
	return A, B
}

// svcCoupleProbabilities turns pairwise probabilities r[i][j] = P(i | i or j)
// into class probabilities p (Wu, Lin & Weng 2004, method 2).
func svcCoupleProbabilities(r [][]float64, p []float64) {
	k := len(p)
	Q := make([][]float64, k)
	for t := range Q {
		Q[t] = make([]float64, k)
	}
	Qp := make([]float64, k)
	for t := 0; t < k; t++ {
		p[t] = 1 / float64(k)
		for j := 0; j < k; j++ {
			if j == t {
				continue
			}
			Q[t][t] += r[j][t] * r[j][t]
			if j < t {
				Q[t][j] = Q[j][t]
			} else {
				Q[t][j] = -r[j][t] * r[t][j]
			}
		}
	}
	eps := 0.005 / float64(k)
	for iter := 0; iter < max(100, k); iter++ {
		var pQp float64
		for t := 0; t < k; t++ {
			Qp[t] = 0
			for j := 0; j < k; j++ {
				Qp[t] += Q[t][j] * p[j]
			}
			pQp += p[t] * Qp[t]
		}
		worst := 0.0
		for t := 0; t < k; t++ {
			worst = math.Max(worst, math.Abs(Qp[t]-pQp))
		}
		if worst < eps {
			break
		}
		for t := 0; t < k; t++ {
			diff := (-Qp[t] + pQp) / Q[t][t]
			p[t] += diff
			pQp = (pQp + diff*(diff*Q[t][t]+2*Qp[t])) / (1 + diff) / (1 + diff)
			for j := 0; j < k; j++ {
				Qp[j] = (Qp[j] + diff*Q[t][j]) / (1 + diff)
				p[j] /= 1 + diff
			}
		}
	}
}

// svcMemory is the copy of the rows a pair solves on, the kernel cache as
// far as it can fill, and a few vectors per row.
func svcMemory(s engine.Shape, v engine.Values) engine.Need {
	return smoMemory(s.Rows, s.Rows, s.Cols, v)
}

// smoMemory is the need of an SMO fit over vars variables on rows rows:
// the rows copied for the kernel, cached kernel rows (at most cache_mb,
// at most every row whole), and some ten vectors of every variable.
func smoMemory(rows, vars, cols int, v engine.Values) engine.Need {
	cache := math.Min(v.Float("cache_mb")*(1<<20), 8*float64(rows)*float64(rows))
	need := engine.Need{Bytes: cache, What: fmt.Sprintf("a kernel cache of %s (cache_mb)", engine.Bytes(cache)),
		Advice: "lower cache_mb, or sample the rows"}
	return need.Plus(engine.Matrix(rows, cols, "copy of the rows")).Plus(engine.Matrix(vars, 10, "solver's vectors"))
}
