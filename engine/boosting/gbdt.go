// Package boosting holds gradient-boosted trees (gbdt): stagewise fitting
// of a loss by regression trees, each fitted to the gradient of the loss
// at the scores so far with second-order gains (Friedman 2001; Chen &
// Guestrin 2016, XGBoost; Ke et al. 2017, LightGBM).
//
// Rules that hold across the package:
//   - Features are binned once a fit (bins.go): at most max_bins bins a
//     feature from quantiles of the training rows, bin 0 for missing
//     values; trees split on bins and sum gradients per bin (histograms),
//     the larger child's histogram being its parent's less the smaller's.
//   - A split learns where missing values go: both sides are tried and the
//     better kept, as XGBoost does; with no missing value at the node,
//     they follow the heavier side.
//   - Nominal columns are split by sets of levels (LightGBM's way): levels
//     ordered by their leaf weight −G/(H+λ), the best prefix of that order
//     goes left; the max_bins−1 most frequent levels have a bin each, the
//     rest share one.
//   - Results do not depend on jobs: each feature's histogram is summed by
//     one goroutine in row order, and splits are chosen feature by feature.
package boosting

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"

	"github.com/tealab/tealab/advice"
	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

const family = "boosting"

// GBDT is gradient boosting of regression trees (Friedman 2001) with the
// second-order split gain and leaf weights of XGBoost (Chen & Guestrin
// 2016): each round computes, per row, the gradient g and hessian h of the
// loss at the current raw scores, grows a tree whose split gain is
// ½[G_L²/(H_L+λ) + G_R²/(H_R+λ) − G²/(H+λ)] and whose leaves output
// −G/(H+λ), and adds the tree times the learning rate. Classification fits
// the log-odds (two classes, the logistic loss) or one score a class
// (softmax, a tree per class per round); regression fits the squared,
// absolute or Huber loss.
type GBDT struct {
	Rounds             int
	LearningRate       float64
	MaxDepth           int // 0: no limit
	MaxLeaves          int // 0: depth-wise growth; > 0: best first (LightGBM)
	MaxBins            int
	Lambda             float64
	MinChildWeight     float64
	MinSamplesLeaf     int
	Subsample          float64
	Colsample          float64
	Loss               string // regression: squared, absolute, huber
	HuberQuantile      float64
	ClassWeight        string
	EarlyStopping      int // rounds without improvement; 0: off
	ValidationFraction float64
	Importance         string // gain or split
	Jobs               int

	m *fitted
	engine.FitState
}

// fitted is what a fit learned: all that predicting needs.
type fitted struct {
	bins     *binner
	p        int
	k        int // classes; 0 for regression
	K        int // trees a round: 1, or k for softmax
	loss     string
	base     []float64 // the raw scores before any tree, one an output
	trees    []*tree   // round r's tree of output c at r*K+c
	features []string
}

// Choices of class_weight and importance.
const (
	WeightNone     = "none"
	WeightBalanced = "balanced"
	ImportanceGain = "gain"
	ImpSplit       = "split"
)

func init() {
	engine.Register(engine.Spec{
		Weighted: true,
		Name:     "gbdt",
		Title:    "gradient-boosted trees",
		Family:   family,
		Summary:  "trees fitted one round at a time to the gradient of a loss: the tabular specialists' model",
		Notes: "Friedman 2001, Greedy function approximation: a gradient boosting machine; Chen & Guestrin 2016, XGBoost; " +
			"Ke et al. 2017, LightGBM; Shewchuk, Concise Machine Learning, lecture 24 (boosting as stagewise fitting of a loss)",
		Tasks: []engine.Task{datasets.Classification, datasets.Regression},
		Unit:  "round",
		Loss:  "training loss (log-loss; regression: the loss chosen)",
		Input: engine.Input{Nominal: true, Missing: true},
		Params: []engine.Param{
			{Name: "rounds", Kind: engine.Int, Default: 100, Min: 1, Max: 100000,
				Help: "boosting rounds: one tree each (one a class above two classes)"},
			{Name: "learning_rate", Kind: engine.Float, Default: 0.1, Min: 1e-4, Max: 1, Log: true,
				Help: "shrinkage: each tree's output is multiplied by it (smaller needs more rounds)"},
			{Name: "max_depth", Kind: engine.Int, Default: 6, Min: 0, Max: 64,
				Help: "deepest a tree grows (0: no limit, for growth bounded by max_leaves)"},
			{Name: "max_leaves", Kind: engine.Int, Default: 0, Min: 0, Max: 1e6,
				Help: "0: grow level by level (XGBoost); above 0: best leaf first up to this many leaves (LightGBM)"},
			{Name: "max_bins", Kind: engine.Int, Default: 255, Min: 2, Max: 255,
				Help:   "bins a feature's values are cut into, from quantiles of the training rows (plus one for missing)",
				Detail: "A numeric feature of few distinct values gets a bin for each (cut midway between neighbours); one of more is cut at its quantiles, read from at most 200,000 rows. A nominal feature's max_bins−1 most frequent levels get a bin each and the rest share one; a split sends a set of levels left, found as LightGBM finds it by ordering the levels by their leaf weight −G/(H+λ) and taking the best prefix."},
			{Name: "lambda", Kind: engine.Float, Default: 1.0, Min: 0, Max: 1e6,
				Help: "L2 penalty on leaf weights: a leaf outputs −G/(H+λ)"},
			{Name: "min_child_weight", Kind: engine.Float, Default: 1.0, Min: 0, Max: 1e9,
				Help: "least hessian sum a child may hold (rows, for the squared loss)"},
			{Name: "min_samples_leaf", Kind: engine.Int, Default: 20, Min: 1, Max: 1e9,
				Help:   "fewest training rows a leaf may hold (20 as LightGBM and HistGradientBoosting; 1 as XGBoost)",
				Detail: "A child's rows are estimated from its hessian, as LightGBM estimates them: the node's rows per unit of hessian times the child's hessian (exact for the squared loss). Without it, trees of depth 6 overfit a few hundred rows."},
			{Name: "subsample", Kind: engine.Float, Default: 1.0, Min: 0.01, Max: 1,
				Help: "share of the rows drawn, without replacement, for each round's trees"},
			{Name: "colsample", Kind: engine.Float, Default: 1.0, Min: 0.01, Max: 1,
				Help: "share of the features drawn for each tree"},
			{Name: "loss", Kind: engine.Choice, Default: LossSquared, Choices: []string{LossSquared, LossAbsolute, LossHuber},
				Help:   "regression loss (classification always fits the log-loss)",
				Detail: "squared fits the mean, from the mean; absolute fits the median, from the median, each leaf taking the median of its rows' residuals; huber is squared within delta and absolute beyond, delta the huber_quantile of the absolute residuals each round, each leaf set as Friedman's M-regression sets it."},
			{Name: "huber_quantile", Kind: engine.Float, Default: 0.9, Min: 0.5, Max: 0.999,
				When: &engine.Applies{Param: "loss", In: []string{LossHuber}},
				Help: "Huber's delta is this quantile of the absolute residuals, each round (scikit-learn's alpha)"},
			{Name: "class_weight", Kind: engine.Choice, Default: WeightNone, Choices: []string{WeightNone, WeightBalanced},
				Help: "balanced weighs each class's rows by n/(k·n_c), so that every class counts alike"},
			{Name: "early_stopping", Kind: engine.Int, Default: 0, Min: 0, Max: 100000,
				Help:   "stop after this many rounds without a better validation loss, keeping the best (0: off)",
				Detail: "The validation rows are validation_fraction of the training rows (stratified for classification), held out of the trees; the model keeps the rounds up to the best validation loss."},
			{Name: "validation_fraction", Kind: engine.Float, Default: 0.1, Min: 0.01, Max: 0.5,
				When: &engine.Applies{Param: "early_stopping", Above: 0},
				Help: "share of the training rows held out to decide early stopping"},
			{Name: "importance", Kind: engine.Choice, Default: ImportanceGain, Choices: []string{ImportanceGain, ImpSplit},
				Help: "feature importances by the total gain of a feature's splits, or by their count"},
			{Name: "jobs", Kind: engine.Int, Default: 1, Min: 1, Max: 256,
				Help: "cores that build histograms at once; the model is the same whatever the number"},
		},
		Bench: []engine.BenchCase{
			{Name: "gbdt", Data: "clf_50k_20", Task: datasets.Classification},
			{Name: "gbdt_1m", Data: "clf_1m_28", Task: datasets.Classification},
		},
		Memory: memory,
		Advise: func(cols []datasets.Column) []advice.Warning {
			var out []advice.Warning
			for _, c := range cols {
				if c.Kind == datasets.Nominal && len(c.Levels) > 254 {
					out = append(out, advice.Say("gbdt: nominal column %q has %d levels; beyond the max_bins−1 most frequent (254 by default) they share one bin, which splits cannot part",
						c.Name, len(c.Levels)))
				}
			}
			return out
		},
		New: func(v engine.Values) (engine.Model, error) {
			return &GBDT{Rounds: v.Int("rounds"), LearningRate: v.Float("learning_rate"), MaxDepth: v.Int("max_depth"),
				MaxLeaves: v.Int("max_leaves"), MaxBins: v.Int("max_bins"), Lambda: v.Float("lambda"),
				MinChildWeight: v.Float("min_child_weight"), MinSamplesLeaf: v.Int("min_samples_leaf"), Subsample: v.Float("subsample"), Colsample: v.Float("colsample"),
				Loss: v.String("loss"), HuberQuantile: v.Float("huber_quantile"), ClassWeight: v.String("class_weight"),
				EarlyStopping: v.Int("early_stopping"), ValidationFraction: v.Float("validation_fraction"),
				Importance: v.String("importance"), Jobs: v.Int("jobs")}, nil
		},
	})
}

// memory estimates a fit: the binned matrix (a byte a value), the scores,
// gradients and row lists, and the histograms the growing leaves hold (a
// level's pending leaves when growing depth first, every leaf best first).
func memory(s engine.Shape, v engine.Values) engine.Need {
	n, p := float64(s.Rows), float64(s.Cols)
	K := 1.0
	if s.Classes > 2 {
		K = float64(s.Classes)
	}
	leaves := 64.0
	if d := v.Int("max_depth"); d > 0 {
		leaves = float64(d)
	}
	if l := v.Int("max_leaves"); l > 0 {
		leaves = float64(l)
	}
	bins := float64(v.Int("max_bins") + 1)
	need := engine.Need{Bytes: n * p, What: fmt.Sprintf("the %d x %d matrix of bins", s.Rows, s.Cols)}
	need = need.Plus(engine.Need{Bytes: n * (8*2*K + 16 + 4*2 + 8), What: "the scores and gradients of the rows"})
	return need.Plus(engine.Need{Bytes: (leaves + 2) * p * bins * 16, What: "the histograms of the growing leaves"})
}

// Fit runs the boosting rounds, reporting each.
func (m *GBDT) Fit(ctx context.Context, t engine.Train, rec engine.Recorder) error {
	m.m = nil
	if err := engine.CheckTrain(t, "gbdt", false); err != nil {
		return err
	}
	n, p := t.X.Dims()
	f := &fitted{p: p, features: t.Features}
	var present []int
	if len(t.Classes) > 0 {
		var err error
		if present, err = engine.PresentClasses(t, "gbdt"); err != nil {
			return err
		}
		f.k = len(t.Classes)
		f.K, f.loss = 1, lossLogistic
		if f.k > 2 {
			f.K, f.loss = f.k, lossSoftmax
		}
	} else {
		f.K, f.loss = 1, m.Loss
	}
	w := make([]float64, n)
	for i := range w {
		w[i] = 1
		if t.Weights != nil {
			w[i] = t.Weights[i]
		}
	}
	y := t.Y
	if f.k > 0 && m.ClassWeight == WeightBalanced {
		balance(w, y, f.k, len(present))
	}
	rng := rand.New(rand.NewPCG(t.Seed, 0x9e3779b97f4a7c15))
	fit, val := allRows(n), []int32(nil)
	if m.EarlyStopping > 0 {
		fit, val = holdOut(rng, y, f.k, m.ValidationFraction)
	}
	bins, err := newBinner(t, fit, m.MaxBins, t.Seed)
	if err != nil {
		return err
	}
	f.bins = bins
	codes := bins.codes(t)
	f.base = baseScores(f, y, w, fit, present)

	jobs := min(max(m.Jobs, 1), runtime.GOMAXPROCS(0))
	g := newGrower(bins, codes, n, growConfig{lambda: m.Lambda, minChild: m.MinChildWeight, minLeaf: m.MinSamplesLeaf, maxDepth: m.MaxDepth,
		maxLeaves: m.MaxLeaves, shrink: m.LearningRate, jobs: jobs})
	g.stop = ctx.Done()
	g.gh = make([]gpair, n)
	var usable []int // features a split can use
	for j, nb := range bins.nbins {
		if nb > 2 {
			usable = append(usable, j)
		}
	}
	F := make([]float64, n*f.K) // raw scores, row-major
	for i := range n {
		copy(F[i*f.K:(i+1)*f.K], f.base)
	}
	isPresent := make([]bool, max(f.k, 1))
	for _, c := range present {
		isPresent[c] = true
	}
	st := &roundState{m: m, f: f, y: y, w: w, F: F, fit: fit, val: val}
	if f.k > 0 {
		st.P = make([]float64, n*f.K) // the probabilities at the scores F
		st.loss(fit, 0)
	}
	var sampled []int32 // the round's rows when subsample < 1
	bestLoss, bestRound := math.Inf(1), 0
	for round := 1; round <= m.Rounds; round++ {
		rows := fit
		if m.Subsample < 1 {
			rows = subsample(rng, fit, m.Subsample, sampled)
			sampled = rows
		}
		delta := 0.0
		if f.loss == LossHuber {
			delta = st.huberDelta(m.HuberQuantile)
		}
		var made []*tree
		leaves, gain := 0, 0.0
		for c := range f.K {
			if f.loss == lossSoftmax && !isPresent[c] {
				tr := &tree{}
				tr.addNode(0, 0, 0)
				made = append(made, tr)
				continue
			}
			st.gradients(g.gh, c, delta)
			g.rows = append(g.rows[:0], rows...)
			g.feats = colsample(rng, usable, m.Colsample, g.feats)
			gr := g.grow()
			if gr == nil {
				return m.StoppedEarly(ctx.Err()) // the rounds so far stay
			}
			tr := gr.t
			if f.loss == LossAbsolute || f.loss == LossHuber {
				st.robustLeaves(gr, g.rows, delta)
			}
			for k, feat := range tr.feature {
				if feat >= 0 && tr.cats[k] < 0 {
					tr.thresh[k] = bins.cuts[feat][tr.bin[k]-1]
				}
			}
			st.addTree(gr, g.rows, len(rows) == len(fit), codes, n, c)
			made = append(made, tr)
			leaves += tr.leaves()
			for _, x := range tr.gain {
				gain += x
			}
		}
		f.trees = append(f.trees, made...)
		m.m, m.Fitted = f, true
		loss := st.loss(fit, delta)
		valLoss := math.NaN()
		if len(val) > 0 {
			valLoss = st.loss(val, delta)
		}
		err := rec.Step(engine.Step{Step: round, Total: m.Rounds, TrainLoss: loss,
			Detail: Round{Trees: len(f.trees), Leaves: leaves, Gain: gain, ValidLoss: valLoss}})
		if err == nil {
			err = ctx.Err()
		}
		if err != nil {
			return m.StoppedEarly(err) // cancelled, the rounds so far stay
		}
		if len(val) > 0 {
			if valLoss < bestLoss || bestRound == 0 {
				bestLoss, bestRound = valLoss, round
			} else if round-bestRound >= m.EarlyStopping {
				f.trees = f.trees[:bestRound*f.K]
				break
			}
		}
	}
	return nil
}

// allRows is 0..n-1.
func allRows(n int) []int32 {
	r := make([]int32, n)
	for i := range r {
		r[i] = int32(i)
	}
	return r
}

// balance multiplies each row's weight by n/(k·n_c), n_c its class's rows,
// k the classes present (scikit-learn's "balanced").
func balance(w, y []float64, k, present int) {
	count := make([]float64, k)
	for _, v := range y {
		count[int(v)]++
	}
	for i, v := range y {
		w[i] *= float64(len(y)) / (float64(present) * count[int(v)])
	}
}

// holdOut sets aside a share frac of the rows for early stopping: of each
// class's rows (classification, k > 0), else of all; a class of one row
// keeps it for training. Both lists are in row order.
func holdOut(r *rand.Rand, y []float64, k int, frac float64) (fit, val []int32) {
	groups := [][]int32{allRows(len(y))}
	if k > 0 {
		groups = make([][]int32, k)
		for i, v := range y {
			groups[int(v)] = append(groups[int(v)], int32(i))
		}
	}
	isVal := make([]bool, len(y))
	for _, rows := range groups {
		r.Shuffle(len(rows), func(a, b int) { rows[a], rows[b] = rows[b], rows[a] })
		take := int(math.Round(frac * float64(len(rows))))
		take = min(take, len(rows)-1)
		for _, i := range rows[:max(take, 0)] {
			isVal[i] = true
		}
	}
	for i, v := range isVal {
		if v {
			val = append(val, int32(i))
		} else {
			fit = append(fit, int32(i))
		}
	}
	return fit, val
}

// subsample draws a share frac of rows without replacement, in row order,
// into buf.
func subsample(r *rand.Rand, rows []int32, frac float64, buf []int32) []int32 {
	m := max(1, int(frac*float64(len(rows))))
	buf = append(buf[:0], rows...)
	for i := range m {
		k := i + r.IntN(len(buf)-i)
		buf[i], buf[k] = buf[k], buf[i]
	}
	buf = buf[:m]
	slices.Sort(buf)
	return buf
}

// colsample draws a share frac of the features (at least one), in order,
// into buf.
func colsample(r *rand.Rand, feats []int, frac float64, buf []int) []int {
	buf = append(buf[:0], feats...)
	if frac >= 1 || len(feats) == 0 {
		return buf
	}
	m := max(1, int(math.Round(frac*float64(len(feats)))))
	for i := range m {
		k := i + r.IntN(len(buf)-i)
		buf[i], buf[k] = buf[k], buf[i]
	}
	buf = buf[:m]
	slices.Sort(buf)
	return buf
}

// baseScores are the raw scores before any tree: the log-odds of the
// second class's share, the log of each class's share (a class absent
// from the rows gets a score whose probability is nil in practice), the
// mean (squared loss) or the median (absolute and Huber losses).
func baseScores(f *fitted, y, w []float64, rows []int32, present []int) []float64 {
	base := make([]float64, f.K)
	total := 0.0
	for _, i := range rows {
		total += w[i]
	}
	switch f.loss {
	case lossLogistic, lossSoftmax:
		share := make([]float64, f.k)
		for _, i := range rows {
			share[int(y[i])] += w[i]
		}
		for c := range share {
			share[c] = max(share[c]/total, 1e-15)
		}
		if f.loss == lossLogistic {
			base[0] = math.Log(share[1] / share[0])
		} else {
			for c := range base {
				base[c] = math.Log(share[c])
			}
		}
	case LossSquared:
		s := 0.0
		for _, i := range rows {
			s += w[i] * y[i]
		}
		base[0] = s / total
	default:
		v, ws := make([]float64, len(rows)), make([]float64, len(rows))
		for k, i := range rows {
			v[k], ws[k] = y[i], w[i]
		}
		base[0] = weightedQuantile(v, ws, 0.5, make([]int, len(v)))
	}
	return base
}

// roundState is what the rounds share: the targets, weights and raw
// scores of the rows, the rows the trees fit and those held out.
type roundState struct {
	m        *GBDT
	P        []float64 // classification: each row's probabilities at F, as loss last left them
	f        *fitted
	y, w, F  []float64
	fit, val []int32
	bufV     []float64
	bufW     []float64
	bufI     []int
}

// gradients writes each fitting row's gradient and hessian of the loss for
// output c, from the probabilities P of the round's start (classification).
func (s *roundState) gradients(gh []gpair, c int, delta float64) {
	K, P := s.f.K, s.P
	for _, i := range s.fit {
		w, y, f := s.w[i], s.y[i], s.F[int(i)*K+c]
		var gg, hh float64
		switch s.f.loss {
		case lossLogistic:
			q := P[i]
			gg, hh = q-y, max(q*(1-q), 1e-16)
		case lossSoftmax:
			q := P[int(i)*K+c]
			gg, hh = q, max(q*(1-q), 1e-16)
			if int(y) == c {
				gg--
			}
		case LossSquared:
			gg, hh = f-y, 1
		case LossAbsolute:
			switch {
			case f > y:
				gg = 1
			case f < y:
				gg = -1
			}
			hh = 1
		case LossHuber:
			gg, hh = -clip(y-f, delta), 1
		}
		gh[i] = gpair{gg * w, hh * w}
	}
}

// huberDelta is the q-quantile of the fitting rows' absolute residuals.
func (s *roundState) huberDelta(q float64) float64 {
	v, w := s.bufV[:0], s.bufW[:0]
	for _, i := range s.fit {
		v = append(v, math.Abs(s.y[i]-s.F[i]))
		w = append(w, s.w[i])
	}
	s.bufV, s.bufW = v, w
	if cap(s.bufI) < len(v) {
		s.bufI = make([]int, len(v))
	}
	d := weightedQuantile(v, w, q, s.bufI)
	if !(d > 0) {
		d = 1e-12
	}
	return d
}

// robustLeaves sets the leaves of a tree fitted to the absolute or Huber
// loss's gradient as the loss wants them: the weighted median of the
// leaf's residuals, plus for Huber the mean of the residuals' clipped
// distances to it (Friedman 2001, algorithms 3 and 4); shrunk.
func (s *roundState) robustLeaves(gr *grown, rows []int32, delta float64) {
	for _, l := range gr.leaves {
		v, w := s.bufV[:0], s.bufW[:0]
		for _, i := range rows[l.lo:l.hi] {
			v = append(v, s.y[i]-s.F[i])
			w = append(w, s.w[i])
		}
		s.bufV, s.bufW = v, w
		if cap(s.bufI) < len(v) {
			s.bufI = make([]int, len(v))
		}
		med := weightedQuantile(v, w, 0.5, s.bufI)
		if math.IsNaN(med) {
			gr.t.value[l.node] = 0
			continue
		}
		out := med
		if s.f.loss == LossHuber {
			sum, ws := 0.0, 0.0
			for k := range v {
				sum += w[k] * clip(v[k]-med, delta)
				ws += w[k]
			}
			out += sum / ws
		}
		gr.t.value[l.node] = out * s.m.LearningRate
	}
}

// addTree adds tree gr's output c to the raw scores: of the rows it was
// grown on from its leaves' row ranges, of the others (rows not drawn,
// held-out rows) through the tree.
func (s *roundState) addTree(gr *grown, rows []int32, all bool, codes []uint8, n, c int) {
	K, t := s.f.K, gr.t
	for _, l := range gr.leaves {
		v := t.value[l.node]
		for _, i := range rows[l.lo:l.hi] {
			s.F[int(i)*K+c] += v
		}
	}
	if !all {
		grownOn := make([]bool, n)
		for _, i := range rows {
			grownOn[i] = true
		}
		for _, i := range s.fit {
			if !grownOn[i] {
				s.F[int(i)*K+c] += t.value[t.leafBinned(codes, n, int(i))]
			}
		}
	}
	for _, i := range s.val {
		s.F[int(i)*K+c] += t.value[t.leafBinned(codes, n, int(i))]
	}
}

// loss is the weighted mean loss of rows at the current scores: the
// log-loss, the squared error, the absolute error or Huber's loss. For a
// classifier it leaves the rows' probabilities in P, which the next
// round's gradients read.
func (s *roundState) loss(rows []int32, delta float64) float64 {
	K := s.f.K
	total, ws := 0.0, 0.0
	var logs logSum
	for _, i := range rows {
		w, y := s.w[i], s.y[i]
		var l float64
		switch s.f.loss {
		case lossLogistic:
			q := sigmoid(s.F[i])
			s.P[i] = q
			if y != 1 {
				q = 1 - q
			}
			logs.add(q, w)
		case lossSoftmax:
			p := s.P[int(i)*K : int(i+1)*K]
			softmaxInto(p, s.F[int(i)*K:int(i+1)*K])
			logs.add(p[int(y)], w)
		case LossSquared:
			d := s.F[i] - y
			l = d * d
		case LossAbsolute:
			l = math.Abs(s.F[i] - y)
		case LossHuber:
			l = huberLoss(y-s.F[i], delta)
		}
		total += w * l
		ws += w
	}
	if ws == 0 {
		return math.NaN()
	}
	return (total - logs.total()) / ws
}

// logSum sums w·log q over rows for the log-loss with few logarithms: the
// probabilities of rows of weight 1 are multiplied together and the log of
// their product taken every 16 rows. Each q is taken as at least 1e-18 (a
// row's loss at most 41.4), so that 16 of them never underflow.
type logSum struct {
	prod float64
	k    int
	sum  float64
}

func (a *logSum) add(q, w float64) {
	q = max(q, 1e-18)
	if w != 1 {
		a.sum += w * math.Log(q)
		return
	}
	if a.k == 0 {
		a.prod = 1
	}
	a.prod *= q
	if a.k++; a.k == 16 {
		a.sum += math.Log(a.prod)
		a.k = 0
	}
}

func (a *logSum) total() float64 {
	if a.k > 0 {
		return a.sum + math.Log(a.prod)
	}
	return a.sum
}

var _ engine.Forester = (*GBDT)(nil)
