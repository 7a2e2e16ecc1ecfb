package nn

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/persisttest"
	"github.com/tealab/tealab/internal/sweep"
)

// gradCase builds a small net (3 inputs, hidden widths 5 and 9 that are
// not multiples of the panels' 8, k outputs) and 7 rows with targets.
func gradCase(t *testing.T, act string, out, k int) (*mlpNet, *mlpBatch, []float64) {
	t.Helper()
	a, err := NewActivation(act)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	net := newMLPNet([]int{3, 5, 9, k}, a, out)
	net.initialise(rng, false)
	for l := 1; l <= net.layers(); l++ { // biases off zero: no ReLU input sits on its kink
		for u := range net.sizes[l] {
			net.w[net.boff[l]+u] = rng.Float64() - 0.5
		}
	}
	const rows = 7
	b := newMLPBatch(net, rows, false)
	y := make([]float64, rows)
	for i := range rows {
		for j := range 3 {
			b.acts[0][i*net.pads[0]+j] = rng.NormFloat64()
		}
		y[i] = rng.Float64()
		if out == outSoftmax || k > 1 {
			y[i] = float64(rng.IntN(k))
		}
	}
	return net, b, y
}

// The backpropagated gradient of every activation and every output and
// loss, with and without L2, with and without sample weights, agrees with central finite differences of
// the loss (mean loss plus l2/(2·rows)·‖W‖²) in every weight and bias.
func TestMLPGradientMatchesFiniteDifferences(t *testing.T) {
	outs := []struct {
		name string
		out  int
		k    int
	}{{"softmax", outSoftmax, 3}, {"linear", outLinear, 1}, {"sigmoid classes", outSigmoid, 3}, {"sigmoid regression", outSigmoid, 1}}
	for _, act := range Activations {
		for _, o := range outs {
			for c, l2 := range []float64{0, 0.3, 0, 0.3} {
				net, b, y := gradCase(t, act, o.out, o.k)
				const rows = 7
				var weights []float64
				if c >= 2 {
					weights = []float64{0.5, 2, 0, 1, 3, 0.25, 1.5}
				}
				objective := func() float64 {
					net.forward(b, rows, nil, 0)
					return net.loss(b, rows, y, weights) + net.penalty(l2, rows)
				}
				objective()
				g := make([]float64, len(net.w))
				net.backward(b, rows, g, l2)
				worst := 0.0
				for i := range net.w {
					w0 := net.w[i]
					net.w[i] = w0 + 1e-6
					up := objective()
					net.w[i] = w0 - 1e-6
					down := objective()
					net.w[i] = w0
					fd := (up - down) / 2e-6
					worst = max(worst, math.Abs(fd-g[i])/max(1, math.Abs(fd)))
				}
				if worst > 1e-6 {
					t.Errorf("%s, %s, l2=%v, weights %v: the gradient differs from finite differences by %.3g", act, o.name, l2, weights, worst)
				}
			}
		}
	}
}

// holdout is eval's default evaluation of mlp with these parameters (the
// CLI's `tealab train --data NAME --model mlp --seed SEED`): its hold-out
// accuracy, or R² for regression.
func holdout(t *testing.T, data string, seed uint64, params map[string]string) float64 {
	t.Helper()
	tab, err := datasets.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	d, err := tab.Dataset("", datasets.Auto)
	if err != nil {
		t.Fatal(err)
	}
	spec, _ := engine.Lookup(mlpName)
	v, err := spec.Parse(params)
	if err != nil {
		t.Fatal(err)
	}
	opt := eval.DefaultOptions()
	opt.Seed = seed
	res, err := eval.Run(context.Background(), d, spec, v, opt, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s, ok := res.Metrics["accuracy"]; ok {
		return s
	}
	return res.Metrics["r2"]
}

// The defaults learn the two moons and the digits (tealab train --data
// moons|digits --model mlp); XOR with two tanh units (seed 1); diabetes
// to an R² near scikit-learn's MLPRegressor (0.417 averaged over five
// splits with max_iter=2000, -1.07 with its defaults on the raw target:
// testdata/sklearn_mlp_diabetes.py).
func TestMLPLearns(t *testing.T) {
	if testing.Short() {
		t.Skip("trains four networks")
	}
	for _, c := range []struct {
		data   string
		params map[string]string
		min    float64
	}{
		{"moons", nil, 0.97},
		{"digits", nil, 0.95},
		{"xor", map[string]string{"hidden": "2", "activation": "tanh"}, 0.9},
		{"diabetes", nil, 0.4},
	} {
		if got := holdout(t, c.data, 1, c.params); got < c.min {
			t.Errorf("%s %v: hold-out score %.4f, want at least %v", c.data, c.params, got, c.min)
		}
	}
}

// The same over seeds 1-5, and XOR learnt by four tanh units from each
// (two stick in a local minimum from seed 3).
func TestMLPLearnsEverySeedLong(t *testing.T) {
	sweep.Skip(t, "mlp on four data sets, five seeds")
	for seed := uint64(1); seed <= 5; seed++ {
		for _, c := range []struct {
			data   string
			params map[string]string
			min    float64
		}{
			{"moons", nil, 0.97},
			{"digits", nil, 0.95},
			{"xor", map[string]string{"hidden": "4", "activation": "tanh"}, 0.9},
			{"diabetes", nil, 0.15},
		} {
			if got := holdout(t, c.data, seed, c.params); got < c.min {
				t.Errorf("%s %v, seed %d: hold-out score %.4f, want at least %v", c.data, c.params, seed, got, c.min)
			}
		}
	}
}

func fitMLP(t *testing.T, d engine.Train, params map[string]string) (*MLP, error) {
	t.Helper()
	spec, _ := engine.Lookup(mlpName)
	v, err := spec.Parse(params)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := spec.New(v)
	err = engine.Fit(context.Background(), m, d, engine.NopRecorder{})
	return m.(*MLP), err
}

// One core or two, the same seed gives the same weights, bit for bit.
func TestMLPDeterministicAcrossCores(t *testing.T) {
	iris := persisttest.Builtin(t, "iris", datasets.Classification)
	params := map[string]string{"hidden": "20,10", "epochs": "20", "dropout": "0.2", "patience": "3"}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	a, err := fitMLP(t, iris, params)
	if err != nil {
		t.Fatal(err)
	}
	runtime.GOMAXPROCS(2)
	b, err := fitMLP(t, iris, params)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a.net.w, b.net.w) {
		t.Error("two fits under one seed differ")
	}
}

// Early stopping keeps the weights of the epoch whose held-back loss was
// best, not the last epoch's.
func TestMLPEarlyStoppingKeepsTheBestEpoch(t *testing.T) {
	d := persisttest.Builtin(t, "diabetes", datasets.Regression)
	m, err := fitMLP(t, d, map[string]string{"hidden": "200", "lr": "0.01", "patience": "5", "epochs": "500"})
	if err != nil {
		t.Fatal(err)
	}
	if m.epochs >= 500 || m.best != m.epochs-5 {
		t.Fatalf("stopped at epoch %d with the best at %d; want a stop 5 epochs after the best, before 500", m.epochs, m.best)
	}
	// Refit the same seed for exactly the best epoch's count, without
	// holding back: the held-back rows differ, so compare with a fit that
	// holds them back and stops there.
	again, err := fitMLP(t, d, map[string]string{"hidden": "200", "lr": "0.01", "patience": "100000", "epochs": fmt.Sprint(m.best)})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(again.net.w, m.net.w) {
		t.Error("the weights kept are not those of the best epoch")
	}
}

// A learning rate far too large stops the fit at the first epoch whose
// loss explodes, with an error naming lr. The step that reports it shows
// the last good weights (it predicts finite values); the fit failed, so
// the model is then unfitted (engine.Fit).
func TestMLPDivergenceShowsTheLastGoodWeights(t *testing.T) {
	d := persisttest.Builtin(t, "diabetes", datasets.Regression)
	m := engine.MustBuild(mlpName, map[string]string{"optimizer": "sgd", "lr": "10", "batch": "1"})
	rec := &tickRecorder{model: m.(engine.Predictor), X: d.X}
	err := engine.Fit(context.Background(), m, d, rec)
	if !errors.Is(err, engine.ErrDiverged) || len(rec.preds) == 0 {
		t.Fatalf("Fit returned %v after %d steps, want a divergence reported", err, len(rec.preds))
	}
	for _, v := range rec.preds[len(rec.preds)-1] {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("the step reporting the divergence (%v) predicts %v", err, v)
		}
	}
	if _, err := m.(engine.Predictor).Predict(d.X); !errors.Is(err, engine.ErrNotFitted) {
		t.Errorf("after the divergence Predict says %v, want ErrNotFitted", err)
	}
}

// A divergence says the loss as numbers are written elsewhere (1.7e61,
// not 1.72635065950067e+61) and promises nothing the run does not
// deliver: a diverged run reports no model.
func TestMLPDivergenceMessage(t *testing.T) {
	d := persisttest.Builtin(t, "digits", datasets.Classification)
	X := mat.DenseCopyOf(d.X)
	n, c := X.Dims()
	for j := range c { // standardised, as the lab and the command line give them
		col := mat.Col(nil, j, X)
		mean, sd := stat.MeanStdDev(col, nil)
		for i := range n {
			X.Set(i, j, (col[i]-mean)/max(sd, 1e-12))
		}
	}
	d.X = X
	_, err := fitMLP(t, d, map[string]string{"optimizer": "sgd", "lr": "10", "epochs": "2"})
	if !errors.Is(err, engine.ErrDiverged) {
		t.Fatalf("Fit returned %v, want a divergence", err)
	}
	if msg := err.Error(); !regexp.MustCompile(`training loss is \d(\.\d+)?e\d+ at epoch 1; lower the learning rate \(lr=10\)`).MatchString(msg) ||
		strings.Contains(msg, "kept") {
		t.Errorf("divergence: %q", msg)
	}
}

// After warm-up an epoch allocates nothing, with or without dropout.
func TestMLPEpochAllocatesNothing(t *testing.T) {
	for _, dropout := range []float64{0, 0.3} {
		f := digitsFit(t, dropout)
		f.epoch(context.Background(), 0.001)
		if n := testing.AllocsPerRun(3, func() { f.epoch(context.Background(), 0.001) }); n != 0 {
			t.Errorf("dropout %v: an epoch allocates %v times", dropout, n)
		}
	}
}

// digitsFit is the bench case's fit on the digits, ready to run epochs.
func digitsFit(t testing.TB, dropout float64) *mlpFit {
	d := persisttest.Builtin(t, "digits", datasets.Classification)
	m := &MLP{Hidden: []int{100}, Optimizer: Adam, Batch: 200, Dropout: dropout, L2: 1e-4}
	act, _ := NewActivation(ReLU)
	rng := rand.New(rand.NewPCG(1, 2))
	order := rng.Perm(d.Rows())
	f := newMLPFit(m, d.X, d.Y, nil, order, nil, m.sizes(d.Cols(), len(d.Classes)), act, outSoftmax, rng)
	f.net.initialise(rng, true)
	return f
}

// BenchmarkMLPEpoch is one epoch of the bench case (digits, 100 ReLU
// units, batches of 200, Adam): run with -benchmem, it allocates nothing.
func BenchmarkMLPEpoch(b *testing.B) {
	f := digitsFit(b, 0)
	f.epoch(context.Background(), 0.001)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		f.epoch(context.Background(), 0.001)
	}
}

func TestMLPPersist(t *testing.T) {
	iris := persisttest.Builtin(t, "iris", datasets.Classification)
	diabetes := persisttest.Builtin(t, "diabetes", datasets.Regression)
	set, drop, shorten := persisttest.Set, persisttest.Drop, persisttest.Shorten
	edits := []persisttest.Mutation{shorten("weights"), shorten("weights.0"), shorten("weights.1.0"), shorten("biases.0"),
		set("weights.0.0.0", "NaN"), set("hidden", []any{3.0}), set("activation", "relu"), set("output", "identity"),
		set("scale", 0.0), set("best", 99.0), drop("inputs"), set("inputs", 0.0), set("inputs", 1e9), set("classes", 1e9)}
	persisttest.Check(t, []persisttest.Case{
		{Name: mlpName, Settings: map[string]string{"hidden": "6,4", "activation": "tanh", "epochs": "5"}, Train: iris, X: iris.X, Edits: edits},
		{Name: mlpName, Settings: map[string]string{"hidden": "6,4", "activation": "tanh", "epochs": "5", "loss": "sigmoid"}, Train: diabetes, X: diabetes.X,
			Edits: []persisttest.Mutation{set("output", "identity"), set("classes", 1.0), set("shift", "Inf")}},
		{Name: mlpName, Settings: map[string]string{"hidden": "6,4", "activation": "tanh", "epochs": "5"}, Train: diabetes, X: diabetes.X,
			Edits: []persisttest.Mutation{set("output", "softmax"), set("classes", 3.0)}},
	})
}
