package tui

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/inspect"
	"github.com/tealab/tealab/engine/nn"
	"github.com/tealab/tealab/tui/kit"
)

// fakeNet stands for a network family while the real one is written: its
// steps carry nn.Epoch, it describes itself (nn.CapNetwork) and it
// predicts with probabilities that change as it trains (a boundary on the
// first feature moving from the left of the plane to its middle). Its
// gradient norms fall an order of magnitude faster in the first layer
// than in the output, as a sigmoid network's vanish.
type fakeNet struct {
	epochs  int           // 0: until cancelled
	pause   time.Duration // per epoch
	conv    bool
	inputs  int
	classes int
	cut     float64 // the boundary on the first feature
}

func (m *fakeNet) Fit(ctx context.Context, d engine.Train, rec engine.Recorder) error {
	_, m.inputs = d.X.Dims()
	m.classes = max(len(d.Classes), 2)
	for i := 1; m.epochs == 0 || i <= m.epochs; i++ {
		time.Sleep(m.pause)
		m.cut = -2 + 2*(1-1/float64(i))
		f := float64(i)
		e := nn.Epoch{LR: 0.1, Layers: []nn.LayerNorms{
			{Name: "dense 1", Weight: 2 + 1/f, Grad: 1e-2 / (f * f), GradMin: 1e-3 / (f * f), GradMax: 3e-2 / (f * f)},
			{Name: "output", Weight: 1 + 1/f, Grad: 1e-1 / f, GradMin: 1e-1 / f, GradMax: 1e-1 / f},
		}}
		if err := rec.Step(engine.Step{Step: i, Total: m.epochs, TrainLoss: 1 / f, Detail: e}); err != nil {
			return err
		}
	}
	return nil
}

func (m *fakeNet) PredictProba(X mat.Matrix) (*mat.Dense, error) {
	r, _ := X.Dims()
	P := mat.NewDense(r, m.classes, nil)
	for i := range r {
		p := 0.9
		if X.At(i, 0) < m.cut {
			p = 0.1
		}
		P.Set(i, 0, 1-p)
		P.Set(i, 1, p)
	}
	return P, nil
}

func (m *fakeNet) Predict(X mat.Matrix) ([]float64, error) {
	P, _ := m.PredictProba(X)
	r, _ := X.Dims()
	out := make([]float64, r)
	for i := range r {
		if P.At(i, 1) > 0.5 {
			out[i] = 1
		}
	}
	return out, nil
}

func (m *fakeNet) Network() nn.Network {
	net := nn.Network{Inputs: m.inputs, Layers: []nn.Layer{
		{Kind: "dense", Units: 8, Activation: "sigmoid"},
		{Kind: "output", Units: m.classes, Activation: "softmax"},
	}}
	if m.conv {
		net.Layers = append([]nn.Layer{{Kind: "conv", Units: 2, Activation: "relu", Shape: []int{2, 6, 6}}}, net.Layers...)
		net.Filters = [][]float64{{1, 0, -1, 1, 0, -1, 1, 0, -1}, {1, 1, 1, 0, 0, 0, -1, -1, -1}}
		net.FilterH, net.FilterW = 3, 3
	}
	return net
}

// fakeNetSpec is a spec of the fake, not put in the registry (it would join
// the model lists of the other tests).
func fakeNetSpec(m fakeNet) *engine.Spec {
	return &engine.Spec{
		Name: "tuitest_net", Title: "fake network", Family: "test models",
		Summary: "a network that pretends", Notes: "none (tests)",
		Tasks: []engine.Task{datasets.Classification}, Unit: "epoch",
		New: func(engine.Values) (engine.Model, error) { c := m; return &c, nil },
	}
}

func TestLiveNetworkNorms(t *testing.T) {
	t.Parallel()
	hs := sowingRun(t, fakeNetSpec(fakeNet{pause: time.Millisecond}), 120, 40)
	hs.runUntil(func() bool { return trainSteps(hs) > 20 })
	v := hs.View()
	checkFrame(t, v, 120, 40)
	mustContain(t, v, "gradient norm ‖∂L/∂W‖ per layer, batch mean", "dense 1", "output", "‖W‖ 2.0", "‖∂L/∂W‖ 0.0",
		"mean ‖∂L/∂W‖ (batch range)")
	// The first layer's batches spread, the output's do not (one value).
	if !regexp.MustCompile(`dense 1 .*‖∂L/∂W‖ \S+ \(\S+–\S+\)`).MatchString(v) || regexp.MustCompile(`output .*‖∂L/∂W‖ \S+ \(`).MatchString(v) {
		t.Errorf("the layers' spread of batch norms is not as given:\n%s", v)
	}
	// A run whose steps carry no epochs of a network has no such view.
	slow, err := engine.Lookup("tuitest_slow")
	if err != nil {
		t.Fatal(err)
	}
	if v := sowingRun(t, slow, 120, 40).View(); strings.Contains(v, "‖∂L/∂W‖") {
		t.Errorf("a run without nn.Epoch drew the network's norms:\n%s", v)
	}
}

// The wide screen's live figures name each figure whole: a layer's least
// and greatest batch gradient norm were both cut to "dense 1 |grad| m…".
func TestLiveFiguresNameEachFigureWhole(t *testing.T) {
	t.Parallel()
	hs := sowingRun(t, fakeNetSpec(fakeNet{pause: time.Millisecond}), 200, 60)
	hs.runUntil(func() bool { return trainSteps(hs) > 5 })
	v := hs.View()
	checkFrame(t, v, 200, 60)
	mustContain(t, v, "live figures", "dense 1 |grad| min", "dense 1 |grad| max")
	if strings.Contains(v, "|grad| m…") { // the status line under the panel names them whole anyway
		t.Errorf("a figure's name is cut in the live figures:\n%s", v)
	}
}

func TestNetworkViewDrawsLayersAndFilters(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{120, 40}, {80, 24}} {
		hs := sowingRun(t, fakeNetSpec(fakeNet{epochs: 3, conv: true}), size[0], size[1])
		hs.runUntil(func() bool { return hs.a.cur == screenResults })
		hs.resultTab("Network")
		v := hs.View()
		checkFrame(t, v, size[0], size[1])
		mustContain(t, v, "inputs", " 4 ", "conv", "2 masks relu", "2×6×6", "dense", "8 sigmoid", "3 softmax",
			"first-layer filters: 2 masks of 3×3")
		// The first mask, a vertical edge: high on the left, low on the
		// right; the second a horizontal one.
		mustContain(t, v, " ██▓▓░░  ██████ ", " ██▓▓░░  ▓▓▓▓▓▓ ", " ██▓▓░░  ░░░░░░ ")
	}
}

// The decision regions of a model on two-feature data are redrawn while it
// trains: the fake's boundary moves right as its epochs go by. The map is
// drawn on the fitting goroutine between steps (go test -race checks that
// nothing else touches the model).
func TestLiveRegionsFollowTheFit(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{120, 40}, {80, 24}} {
		hs := runOn(t, "moons", fakeNetSpec(fakeNet{pause: 2 * time.Millisecond}), size[0], size[1])
		r := hs.a.history[0]
		if r.Regions == nil {
			t.Fatal("a run on moons has no live regions")
		}
		first := regionsNow(t, hs)
		// Later maps are other pictures: the boundary has moved.
		var later *kit.RegionsShot
		hs.runUntil(func() bool {
			later = r.Regions.Latest.Load()
			return later != nil && later.M != first.M && boundaryColumn(later.M) > boundaryColumn(first.M)
		})
		if later == nil || later.M == first.M || boundaryColumn(later.M) <= boundaryColumn(first.M) {
			t.Fatalf("the regions did not follow the fit")
		}
		showLive(hs, "decision regions as the model trains")
		v := hs.View()
		checkFrame(t, v, size[0], size[1])
		mustContain(t, v, "decision regions as the model trains")
	}
	// Four features: no live regions.
	if hs := sowingRun(t, fakeNetSpec(fakeNet{pause: time.Millisecond}), 120, 40); hs.a.history[0].Regions != nil ||
		strings.Contains(hs.View(), "as the model trains") {
		t.Error("a run on iris (four features) drew live regions")
	}
}

// regionsNow waits for the first live map of the run in hs.
func regionsNow(t *testing.T, hs *harness) *kit.RegionsShot {
	t.Helper()
	var s *kit.RegionsShot
	hs.runUntil(func() bool { s = hs.a.history[0].Regions.Latest.Load(); return s != nil })
	if s == nil {
		t.Fatalf("no live map was drawn:\n%s", hs.View())
	}
	return s
}

// boundaryColumn is the first column of a map's top row predicted class 1.
func boundaryColumn(rm *inspect.RegionMap) int {
	for c, k := range rm.Grid[0] {
		if k == 1 {
			return c
		}
	}
	return len(rm.Grid[0])
}
