package nn

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/persisttest"
	"github.com/tealab/tealab/internal/sweep"
)

// forward computes the class probabilities of image x alone, into b.
func (n *convNet) forward(wt, x []float64, b *buffers) []float64 {
	n.convolve(n.masks(wt).T(), wt, [][]float64{x}, b)
	return n.head(wt, 0, b)
}

// randomNet is a network with random weights (biases too, so that no
// ReLU sits at its kink) and a random image for it.
func randomNet(h, w, f, k, p int, hidden []int, classes int, seed uint64) (*convNet, []float64, []float64) {
	rng := rand.New(rand.NewPCG(seed, 3))
	net := newConvNet(h, w, f, k, p, hidden, classes)
	wt := make([]float64, net.size())
	for i := range wt {
		wt[i] = rng.NormFloat64() * 0.7
	}
	x := make([]float64, h*w)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	return net, wt, x
}

// Backpropagation agrees with central finite differences of the
// cross-entropy, weight by weight: through the convolution alone (pool 1,
// no hidden layer, an even mask), through max pooling with partial
// windows at the edges (5 × 7 in 2 × 2 windows), and through a head of two
// dense ReLU layers.
func TestGradientsMatchFiniteDifferences(t *testing.T) {
	cases := []struct {
		name          string
		h, w, f, k, p int
		hidden        []int
		classes       int
	}{
		{"convolution", 4, 5, 2, 2, 1, nil, 3},
		{"max pooling", 5, 7, 3, 3, 2, nil, 2},
		{"head", 6, 6, 2, 3, 3, []int{5, 4}, 3},
	}
	for _, c := range cases {
		net, wt, x := randomNet(c.h, c.w, c.f, c.k, c.p, c.hidden, c.classes, 7)
		const y = 1
		buf := net.newBuffers(1)
		grad := make([]float64, net.size())
		net.forward(wt, x, buf)
		net.backward(wt, 0, y, 1, buf, grad)
		net.convBackward(1, buf, grad)
		loss := func() float64 { return -math.Log(net.forward(wt, x, buf)[y]) }
		worst := 0.0
		for i := range wt {
			const eps = 1e-6
			keep := wt[i]
			wt[i] = keep + eps
			up := loss()
			wt[i] = keep - eps
			down := loss()
			wt[i] = keep
			fd := (up - down) / (2 * eps)
			worst = max(worst, math.Abs(fd-grad[i])/max(1, math.Abs(fd)))
		}
		if worst > 1e-6 {
			t.Errorf("%s: backpropagation differs from finite differences by %.2g (relative)", c.name, worst)
		}
	}
}

// stepRecorder keeps every step and, when m is set, the probabilities m
// gives rows X inside each.
type stepRecorder struct {
	steps []engine.Step
	m     *CNN
	X     mat.Matrix
	proba []*mat.Dense
}

func (r *stepRecorder) Step(s engine.Step) error {
	r.steps = append(r.steps, s)
	if r.m != nil {
		P, err := r.m.PredictProba(r.X)
		if err != nil {
			return err
		}
		r.proba = append(r.proba, P)
	}
	return nil
}

func fitCNN(t *testing.T, settings map[string]string, d engine.Train, rec engine.Recorder) (*CNN, error) {
	t.Helper()
	m := engine.MustBuild("cnn", settings).(*CNN)
	if r, ok := rec.(*stepRecorder); ok && r.X != nil {
		r.m = m
	}
	return m, engine.Fit(context.Background(), m, d, rec)
}

// iris' four columns make a 2 × 2 image; wine's 13 are no square, and the
// error names the count and the parameter that lays them out; a shape
// whose pixels are not the columns is refused as well, a limit each.
func TestImageShape(t *testing.T) {
	iris := persisttest.Builtin(t, "iris", datasets.Classification)
	wine := persisttest.Builtin(t, "wine", datasets.Classification)
	m, err := fitCNN(t, nil, iris, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Network().Layers[0].Shape; len(got) != 3 || got[1] != 2 || got[2] != 2 {
		t.Errorf("iris' conv layer has shape %v, want [16 2 2]", got)
	}
	for _, c := range []struct {
		settings map[string]string
		want     string
	}{
		{nil, "cnn: 13 columns are not a square image; give shape=HxW with height × width = 13"},
		{map[string]string{"shape": "3x4"}, "cnn: shape=3x4 has 12 pixels but the data have 13 columns"},
	} {
		_, err := fitCNN(t, c.settings, wine, nil)
		if !errors.Is(err, engine.ErrLimit) || err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("wine with %v: %v, want a limit saying %q", c.settings, err, c.want)
		}
	}
	if _, err := fitCNN(t, map[string]string{"shape": "1x13"}, wine, nil); err != nil {
		t.Errorf("wine as a 1x13 strip: %v", err)
	}
	for _, bad := range []string{"8", "8x", "0x8", "ax2"} {
		if _, _, _, err := engine.New("cnn", map[string]string{"shape": bad}); err == nil || !strings.Contains(err.Error(), "parameter shape") {
			t.Errorf("shape=%s: %v, want an error naming the parameter", bad, err)
		}
	}
	if _, _, _, err := engine.New("cnn", map[string]string{"hidden": "8,0"}); err == nil || !strings.Contains(err.Error(), "parameter hidden") {
		t.Errorf("hidden=8,0: %v, want an error naming the parameter", err)
	}
}

// With patience p the fit stops once p epochs in a row failed to lower
// the validation loss, says so in its last step's Total, and keeps the
// weights of the best epoch: the model predicts as it did p steps before
// the end, and did not change since.
func TestStopsEarlyKeepingTheBestWeights(t *testing.T) {
	iris := persisttest.Builtin(t, "iris", datasets.Classification)
	const patience = 3
	rec := &stepRecorder{X: iris.X}
	m, err := fitCNN(t, map[string]string{"patience": "3", "epochs": "1000", "lr": "0.03"}, iris, rec)
	if err != nil {
		t.Fatal(err)
	}
	n := len(rec.steps)
	if n >= 1000 || rec.steps[n-1].Total != n {
		t.Fatalf("%d steps, the last with Total %d: want an early stop that says so", n, rec.steps[n-1].Total)
	}
	after, _ := m.PredictProba(iris.X)
	for s := n - 1 - patience; s < n; s++ {
		if !mat.Equal(rec.proba[s], after) {
			t.Errorf("after the fit the model predicts otherwise than at step %d of %d (want the best, step %d)", s+1, n, n-patience)
		}
	}
	if mat.Equal(rec.proba[n-2-patience], after) {
		t.Errorf("the weights of step %d are those of the step before it: the best was not kept", n-patience)
	}
}

// Patience 0 trains every epoch on every row.
func TestPatienceZeroTrainsEveryEpoch(t *testing.T) {
	iris := persisttest.Builtin(t, "iris", datasets.Classification)
	rec := &stepRecorder{}
	if _, err := fitCNN(t, map[string]string{"patience": "0", "epochs": "40", "lr": "0.03"}, iris, rec); err != nil {
		t.Fatal(err)
	}
	if n := len(rec.steps); n != 40 || rec.steps[n-1].Total != 40 {
		t.Errorf("%d steps, want all 40", n)
	}
}

// Each epoch reports its rate and every layer's norms, by name.
func TestEpochDetail(t *testing.T) {
	iris := persisttest.Builtin(t, "iris", datasets.Classification)
	rec := &stepRecorder{}
	if _, err := fitCNN(t, map[string]string{"hidden": "6,5", "epochs": "3", "lr_decay": "1"}, iris, rec); err != nil {
		t.Fatal(err)
	}
	e, ok := rec.steps[2].Detail.(Epoch)
	if !ok {
		t.Fatalf("step detail %T, want nn.Epoch", rec.steps[2].Detail)
	}
	var names []string
	for _, l := range e.Layers {
		names = append(names, l.Name)
		if !(l.Weight > 0 && l.Grad > 0 && l.GradMin < l.Grad && l.Grad < l.GradMax) { // the mean of several batches
			t.Errorf("%s: norms %v and %v (%v..%v)", l.Name, l.Weight, l.Grad, l.GradMin, l.GradMax)
		}
	}
	if got := strings.Join(names, ","); got != "conv 1,dense 1,dense 2,output" || e.LR != 0.003/3 {
		t.Errorf("layers %s at rate %v, want conv 1,dense 1,dense 2,output at %v", got, e.LR, 0.003/3)
	}
}

// An epoch's mini-batches allocate nothing: not the network, nor gonum's
// products of a batch's patches (1,600 rows of digits' 8 × 8 pixels a
// batch, past its threshold for a parallel product).
func TestEpochAllocatesNothing(t *testing.T) {
	d := persisttest.Builtin(t, "digits", datasets.Classification)
	d.X, d.Y = d.X.Slice(0, 100, 0, 64).(*mat.Dense), d.Y[:100]
	m := engine.MustBuild("cnn", map[string]string{"hidden": "8", "batch": "25"}).(*CNN)
	net := newConvNet(8, 8, m.filters, m.kernel, m.pool, m.hidden, 10)
	tr, _ := newTrainer(m, net, d, append([]float64(nil), d.X.RawMatrix().Data...), 64)
	ctx := context.Background()
	if n := testing.AllocsPerRun(5, func() { _, _ = tr.epoch(ctx, 0.01) }); n != 0 {
		t.Errorf("an epoch allocates %v times", n)
	}
}

// A loss that overflows (here weights near the largest float, as a rate
// far too large leaves them) stops the fit with an error that wraps
// engine.ErrDiverged and names lr, after reporting the step.
func TestDivergenceStops(t *testing.T) {
	iris := persisttest.Builtin(t, "iris", datasets.Classification)
	m := engine.MustBuild("cnn", nil).(*CNN)
	net := newConvNet(2, 2, m.filters, m.kernel, m.pool, m.hidden, 3)
	tr, _ := newTrainer(m, net, iris, append([]float64(nil), iris.X.RawMatrix().Data...), 4)
	for i := range tr.wt {
		tr.wt[i] = 1e306
	}
	rec := &stepRecorder{}
	err := tr.run(context.Background(), rec, func([]float64) {})
	if !errors.Is(err, engine.ErrDiverged) || !strings.Contains(err.Error(), "lower the learning rate lr") || len(rec.steps) != 1 {
		t.Errorf("%v after %d steps, want a divergence naming lr after one", err, len(rec.steps))
	}
}

// The network describes its layers and the first convolution's masks.
func TestNetworkDescribed(t *testing.T) {
	digits := persisttest.Builtin(t, "digits", datasets.Classification)
	digits.X, digits.Y = digits.X.Slice(0, 100, 0, 64).(*mat.Dense), digits.Y[:100]
	m, err := fitCNN(t, map[string]string{"filters": "4", "kernel": "5", "hidden": "7", "epochs": "2"}, digits, nil)
	if err != nil {
		t.Fatal(err)
	}
	nw := m.Network()
	var kinds []string
	for _, l := range nw.Layers {
		kinds = append(kinds, l.Kind)
	}
	if strings.Join(kinds, ",") != "conv,pool,dense,output" || nw.Layers[1].Shape[1] != 4 || nw.Layers[3].Units != 10 {
		t.Errorf("layers %+v", nw.Layers)
	}
	if len(nw.Filters) != 4 || len(nw.Filters[0]) != 25 || nw.FilterH != 5 || nw.Filters[1][3] != m.best[28] {
		t.Errorf("filters %d of %d values (%dx%d), want 4 masks of 5x5 from the weights", len(nw.Filters), len(nw.Filters[0]), nw.FilterH, nw.FilterW)
	}
}

// Saved and loaded, the network answers bit for bit as fitted; a state
// whose shapes or values do not fit its parameters is refused.
func TestPersist(t *testing.T) {
	iris := persisttest.Builtin(t, "iris", datasets.Classification)
	digits := persisttest.Builtin(t, "digits", datasets.Classification)
	digits.X, digits.Y = digits.X.Slice(0, 200, 0, 64).(*mat.Dense), digits.Y[:200]
	set, shorten, lengthen, drop := persisttest.Set, persisttest.Shorten, persisttest.Lengthen, persisttest.Drop
	edits := []persisttest.Mutation{shorten("weights"), lengthen("weights"), set("weights.3", "x"), drop("mean"),
		set("height", 0.0), set("width", 3.0), set("classes", 1.0), set("classes", 4.0), set("scale", 0.0), set("scale", -1.0),
		set("classes", float64(1<<20)), {Name: "a 4096x4096 image", Edit: func(s map[string]any) { s["height"], s["width"] = 4096.0, 4096.0 }}}
	persisttest.Check(t, []persisttest.Case{
		{Name: "cnn", Settings: map[string]string{"epochs": "5"}, Train: iris, X: iris.X, Edits: edits},
		{Name: "cnn", Settings: map[string]string{"shape": "8x8", "hidden": "8", "filters": "3", "epochs": "3"}, Train: digits, X: digits.X,
			Edits: append(edits, set("height", 4.0), set("width", 16.0))},
	})
}

// On digits the defaults hold out 25% of the rows and classify at least
// 96% of them (measured: 0.98).
func TestDigitsAccuracyLong(t *testing.T) {
	sweep.Skip(t, "a convolutional network on digits")
	d := persisttest.Builtin(t, "digits", datasets.Classification)
	n := d.Rows()
	perm := rand.New(rand.NewPCG(1, 2)).Perm(n)
	cut := n * 3 / 4
	tr := d
	tr.X, tr.Y = mat.NewDense(cut, 64, nil), make([]float64, cut)
	test := mat.NewDense(n-cut, 64, nil)
	var want []float64
	for k, i := range perm {
		if k < cut {
			tr.X.SetRow(k, d.X.RawRowView(i))
			tr.Y[k] = d.Y[i]
		} else {
			test.SetRow(k-cut, d.X.RawRowView(i))
			want = append(want, d.Y[i])
		}
	}
	m, err := fitCNN(t, nil, tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := m.Predict(test)
	right := 0
	for i := range got {
		if got[i] == want[i] {
			right++
		}
	}
	if acc := float64(right) / float64(len(got)); acc < 0.96 {
		t.Errorf("accuracy %.4f on digits' held-out rows, want at least 0.96", acc)
	}
}

// The convolution with zero padding, ReLU and 2 × 2 max pooling of a 3 × 4
// image by a Sobel mask with bias 0.5, against scipy 1.x:
// maximum(correlate2d(x, mask, mode="same") + 0.5, 0), then the largest
// of each window (the last row a partial window of its own).
func TestConvolutionAndPoolingWorkedExample(t *testing.T) {
	net := newConvNet(3, 4, 1, 3, 2, nil, 2)
	wt := make([]float64, net.size())
	copy(wt, []float64{1, 0, -1, 2, 0, -2, 1, 0, -1, 0.5})
	x := make([]float64, 12)
	for i := range x {
		x[i] = float64(i+1) - 6
	}
	b := net.newBuffers(1)
	net.forward(wt, x, b)
	conv := b.conv.RawMatrix().Data
	wantConv := []float64{8.5, 0, 0, 0, 0.5, 0, 0, 4.5, 0, 0, 0, 11.5}
	wantPool := []float64{8.5, 4.5, 0, 11.5}
	for i, w := range wantConv {
		if conv[i] != w {
			t.Errorf("conv %v, want %v", conv, wantConv)
			break
		}
	}
	for i, w := range wantPool {
		if b.pool[i] != w {
			t.Errorf("pool %v, want %v", b.pool, wantPool)
			break
		}
	}
}

// A batch larger than the buffers (large images) is convolved a part at
// a time, to the same step as in one piece.
func TestBatchInParts(t *testing.T) {
	d := persisttest.Builtin(t, "digits", datasets.Classification)
	d.X, d.Y = d.X.Slice(0, 60, 0, 64).(*mat.Dense), d.Y[:60]
	m := engine.MustBuild("cnn", map[string]string{"batch": "20"}).(*CNN)
	X := append([]float64(nil), d.X.RawMatrix().Data...)
	whole, _ := newTrainer(m, newConvNet(8, 8, m.filters, m.kernel, m.pool, m.hidden, 10), d, X, 64)
	parts, _ := newTrainer(m, newConvNet(8, 8, m.filters, m.kernel, m.pool, m.hidden, 10), d, X, 64)
	parts.buf = parts.net.newBuffers(3)
	a, _ := whole.epoch(context.Background(), 0.01)
	b, _ := parts.epoch(context.Background(), 0.01)
	if math.Abs(a-b) > 1e-12 {
		t.Errorf("loss %v in parts, %v whole", b, a)
	}
	for i := range whole.wt {
		if math.Abs(whole.wt[i]-parts.wt[i]) > 1e-12 {
			t.Fatalf("weight %d: %v in parts, %v whole", i, parts.wt[i], whole.wt[i])
		}
	}
}

// A network too large for the memory there is (here as $TEALAB_MEMORY
// says) is refused before it is fitted: 128 masks on 200 × 200 images,
// unpooled, feed 5,120,000 values to the softmax head, whose weights are
// 10,240,002 of 10,241,282; five copies of them need 410 MB, and the
// patches and convolutions of one image for training and one for scoring
// 2 × 40,000 × (9 + 2·128) values, 170 MB more.
func TestCNNRefusedBeforeRunningOutOfMemory(t *testing.T) {
	t.Setenv(engine.MemoryEnv, "100MB")
	spec, _ := engine.Lookup("cnn")
	v, err := spec.Parse(map[string]string{"filters": "128", "pool": "1"})
	if err != nil {
		t.Fatal(err)
	}
	need := spec.Memory(engine.Shape{Rows: 3, Cols: 200 * 200, Classes: 2}, v)
	want := "a 10241282 x 5 set of network weights"
	if need.What != want || math.Abs(need.Bytes-(8*5*10241282+8*3*40000+8*2*40000*265)) > 0.5 {
		t.Errorf("the estimate is %.0f bytes for %q, want 580 MB for %q", need.Bytes, need.What, want)
	}
	err = engine.CheckNeed("cnn on images", need)
	if !errors.Is(err, engine.ErrLimit) || !strings.Contains(err.Error(), "more than the 100 MB $TEALAB_MEMORY allows (use fewer filters") {
		t.Errorf("refusal: %v", err)
	}
}
