package tree

import (
	"context"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/numfmt"
)

// AdaBoost is AdaBoost as Shewchuk, Concise Machine Learning, lecture 24,
// teaches it, with short trees as weak learners, in its multi-class form
// (SAMME, which is Shewchuk's algorithm for two classes): weights start at 1/n; each round fits a tree to the weighted
// rows, measures its weighted error err, gives it the vote
// β = ½ ln((1−err)/err) + ½ ln(k−1), multiplies the weights of the rows it
// misclassifies by e^β and of the others by e^−β, and normalises. The
// ensemble predicts the class with the largest total vote M_c(x) = Σ β_t
// [G_t(x) = c]; its probabilities are softmax(2 M(x)), Shewchuk's
// 1/(1+e^−2M(x)) for two classes. The training objective, which each
// round's β minimises along its tree, is SAMME's multi-class exponential
// loss (Zhu, Zou, Rosset & Hastie 2009) written in the votes:
// e^−2(M_y(x) − m(x)), m(x) the mean vote over the classes; e^−yM(x) for
// two classes.
type AdaBoost struct {
	Rounds    int
	MaxDepth  int // depth of each weak tree; 1: stumps
	Criterion string
	MinLeaf   int

	d        *data
	trees    []*grown
	beta     []float64
	features []string
	engine.FitState
}

func init() {
	engine.Register(engine.Spec{
		Weighted: true,
		Name:     "adaboost",
		Title:    "AdaBoost",
		Family:   family,
		Summary:  "boosted short trees: each round reweights the rows the ensemble gets wrong",
		Notes:    "Shewchuk, Concise Machine Learning, lecture 24 (boosting, AdaBoost with stumps); Freund & Schapire 1997; Zhu, Zou, Rosset & Hastie 2009 (SAMME)",
		Tasks:    []engine.Task{datasets.Classification},
		Unit:     "round",
		Loss:     "exp. loss (SAMME)", // its multi-class exponential loss on the training rows
		Input:    engine.Input{Nominal: true, Missing: true},
		Params: []engine.Param{
			{Name: "rounds", Kind: engine.Int, Default: 50, Min: 1, Max: 100000,
				Help: "boosting rounds T: one weak tree each"},
			{Name: "max_depth", Kind: engine.Int, Default: 1, Min: 1, Max: 30, Simpler: engine.SimplerLower,
				Help: "depth of each weak tree: 1 for stumps (they cannot do XOR; depth 2 boosts much better)"},
			growthParams()[0], // criterion
			{Name: "min_samples_leaf", Kind: engine.Int, Default: 1, Min: 1, Max: 1e9, Simpler: engine.SimplerHigher,
				Help: "fewest training rows in each leaf of a weak tree"},
		},
		Bench: []engine.BenchCase{{Name: "adaboost", Data: "clf_20k_20", Task: datasets.Classification,
			Params: map[string]string{"rounds": "100"}}},
		Memory: func(s engine.Shape, _ engine.Values) engine.Need {
			return presortMemory(s, 1)
		},
		New: func(v engine.Values) (engine.Model, error) {
			return &AdaBoost{Rounds: v.Int("rounds"), MaxDepth: v.Int("max_depth"),
				Criterion: v.String("criterion"), MinLeaf: v.Int("min_samples_leaf")}, nil
		},
	})
}

// Fit runs the boosting rounds, reporting each.
func (a *AdaBoost) Fit(ctx context.Context, t engine.Train, rec engine.Recorder) error {
	a.trees, a.beta, a.d = nil, nil, nil
	k := classesOf(t)
	if k < 2 {
		return fmt.Errorf("AdaBoost classifies: it needs at least two classes")
	}
	cfg := growthConfig(a.Criterion, a.MaxDepth, 2, a.MinLeaf, 1, 0, k)
	T := a.Rounds
	d, err := newData(ctx, t, "AdaBoost", k)
	if err != nil {
		return err
	}
	if err := cfg.splittable("AdaBoost", d.n); err != nil {
		return err
	}
	a.d, a.features = d, d.names
	w := make([]float64, d.n)
	sum := 0.0
	for i := range w {
		w[i] = 1
		if t.Weights != nil {
			w[i] = t.Weights[i]
		}
		sum += w[i]
	}
	if !(sum > 0) {
		return fmt.Errorf("AdaBoost: the rows' weights sum to %v", sum)
	}
	for i := range w {
		w[i] /= sum
	}
	w0 := slices.Clone(w) // the rows' own weights, which weigh the loss
	defer d.release()
	g := newGrower(d, cfg, t.Seed)
	g.stop = ctx.Done()
	M := make([]float64, d.n*k) // each training row's votes
	pred := make([]int, d.n)
	votes := 0.0 // Σ β, the sum of each row's votes
	for round := 1; round <= T; round++ {
		tr, err := g.grow(w, nil)
		if err != nil {
			return a.StoppedEarly(ctx.Err()) // the rounds so far stay
		}
		werr, wsum := 0.0, 0.0
		for i := range d.n {
			pred[i] = int(tr.nodes[tr.leaf(d.row(i))].value)
			wsum += w[i]
			if pred[i] != d.y[i] {
				werr += w[i]
			}
		}
		werr /= wsum
		if werr >= 1-1/float64(k) {
			if round == 1 {
				return fmt.Errorf("AdaBoost: the first weak tree is no better than chance (weighted error %.3f); try a deeper weak tree (max_depth)", werr)
			}
			break // no weak tree can help any more: the ensemble is final
		}
		beta := 0.5*math.Log((1-werr)/werr) + 0.5*math.Log(float64(k-1))
		perfect := werr <= 0
		if perfect {
			beta = 0.5 // scikit-learn's rule: its vote 2β is 1
		}
		a.trees = append(a.trees, tr)
		a.beta = append(a.beta, beta)
		a.Fitted = true
		votes += beta
		up, down := math.Exp(beta), math.Exp(-beta)
		sum = 0
		for i := range d.n {
			M[i*k+pred[i]] += beta
			if pred[i] != d.y[i] {
				w[i] *= up
			} else {
				w[i] *= down
			}
			sum += w[i]
		}
		for i := range w {
			w[i] /= sum
		}
		loss, trainErr := exponentialLoss(M, w0, d.y, k, votes)
		err = rec.Step(engine.Step{Step: round, Total: T, TrainLoss: loss,
			Detail: BoostRound{TrainError: trainErr, WeightedError: werr, Vote: beta}})
		if err == nil {
			err = ctx.Err()
		}
		if err != nil {
			return a.StoppedEarly(err) // cancelled, the rounds so far stay
		}
		if perfect {
			break
		}
	}
	return nil
}

// exponentialLoss is SAMME's loss on the training rows, their weighted
// mean of e^−2(M_y − m), m the mean vote over the classes (votes is their
// sum), and the weighted share of rows Predict gets wrong.
func exponentialLoss(M, w []float64, y []int, k int, votes float64) (loss, errRate float64) {
	mean := votes / float64(k)
	for i, c := range y {
		row := M[i*k : (i+1)*k]
		loss += w[i] * math.Exp(-2*(row[c]-mean))
		if floats.MaxIdx(row) != c {
			errRate += w[i]
		}
	}
	return loss, errRate
}

// DecisionFunction implements engine.Scorer: the votes M_c(x).
func (a *AdaBoost) DecisionFunction(X mat.Matrix) (*mat.Dense, error) {
	if !a.Fitted {
		return nil, engine.ErrNotFitted
	}
	n, c := X.Dims()
	if c != a.d.p {
		return nil, fmt.Errorf("AdaBoost: got %d features, fitted on %d", c, a.d.p)
	}
	S := mat.NewDense(n, a.d.k, nil)
	a.addVotes(S, X, 0)
	return S, nil
}

// addVotes adds to the rows of S the votes the weak trees from index from
// on give each row of X.
func (a *AdaBoost) addVotes(S *mat.Dense, X mat.Matrix, from int) {
	n, _ := X.Dims()
	x := make([]float64, a.d.p)
	for i := range n {
		mat.Row(x, i, X)
		row := S.RawRowView(i)
		for t := from; t < len(a.trees); t++ {
			tr := a.trees[t]
			row[int(tr.nodes[tr.leaf(x)].value)] += a.beta[t]
		}
	}
}

// Stages implements engine.Staged: the votes on X, kept as running sums to
// which each new round adds its tree's.
func (a *AdaBoost) Stages(X mat.Matrix) (engine.StageScorer, error) {
	if a.d == nil {
		return nil, engine.ErrNotFitted
	}
	n, c := X.Dims()
	if c != a.d.p {
		return nil, fmt.Errorf("AdaBoost: got %d features, fitted on %d", c, a.d.p)
	}
	return &boostStages{a: a, X: X, votes: mat.NewDense(n, a.d.k, nil), proba: mat.NewDense(n, a.d.k, nil)}, nil
}

// boostStages scores fixed rows as the rounds go.
type boostStages struct {
	a            *AdaBoost
	X            mat.Matrix
	votes, proba *mat.Dense
	done         int // rounds in votes
}

func (st *boostStages) Scores() ([]float64, *mat.Dense, error) {
	a := st.a
	if !a.Fitted {
		return nil, nil, engine.ErrNotFitted
	}
	a.addVotes(st.votes, st.X, st.done)
	st.done = len(a.trees)
	st.proba.Copy(st.votes)
	softmax2(st.proba)
	return argmaxRows(st.votes, a.d.k), st.proba, nil
}

// Predict implements engine.Predictor: the class of the largest vote (the
// lowest class code among equal votes).
func (a *AdaBoost) Predict(X mat.Matrix) ([]float64, error) {
	S, err := a.DecisionFunction(X)
	if err != nil {
		return nil, err
	}
	return argmaxRows(S, a.d.k), nil
}

// PredictProba implements engine.Prober: softmax(2 M(x)).
func (a *AdaBoost) PredictProba(X mat.Matrix) (*mat.Dense, error) {
	S, err := a.DecisionFunction(X)
	if err != nil {
		return nil, err
	}
	softmax2(S)
	return S, nil
}

// softmax2 turns each row of votes M into softmax(2 M), in place.
func softmax2(S *mat.Dense) {
	n, _ := S.Dims()
	for i := range n {
		row := S.RawRowView(i)
		mx := math.Inf(-1)
		for _, v := range row {
			mx = max(mx, v)
		}
		s := 0.0
		for c, v := range row {
			row[c] = math.Exp(2 * (v - mx))
			s += row[c]
		}
		for c := range row {
			row[c] /= s
		}
	}
}

// Tree implements engine.Treer: the first round's tree.
func (a *AdaBoost) Tree() *engine.Tree { return a.TreeAt(0) }

// TreeCount implements engine.Forester: one tree a round.
func (a *AdaBoost) TreeCount() int {
	if !a.Fitted {
		return 0
	}
	return len(a.trees)
}

// TreeAt implements engine.Forester: round i's weak tree, fitted to the
// rows as that round weighed them, and its vote.
func (a *AdaBoost) TreeAt(i int) *engine.Tree {
	if i < 0 || i >= a.TreeCount() {
		return nil
	}
	t := a.d.export(a.trees[i], a.Criterion)
	t.Label = fmt.Sprintf("round %d of %d, vote β %s", i+1, len(a.trees), numfmt.Sig(a.beta[i], 3))
	return t
}

// FeatureImportances implements engine.Importancer: each weak tree's
// normalised impurity decrease, weighted by its vote.
func (a *AdaBoost) FeatureImportances() *engine.Importances {
	if !a.Fitted {
		return nil
	}
	v := make([]float64, a.d.p)
	total := 0.0
	for t, tr := range a.trees {
		for j, x := range importances(tr, a.d.p) {
			v[j] += a.beta[t] * x
		}
		total += a.beta[t]
	}
	if total > 0 {
		for j := range v {
			v[j] /= total
		}
	}
	return &engine.Importances{Features: a.features, Values: v, Method: "impurity decrease of the weak trees, weighted by their votes"}
}

var _ engine.Forester = (*AdaBoost)(nil)
