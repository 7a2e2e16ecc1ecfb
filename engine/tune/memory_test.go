package tune_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/tune"
	"gonum.org/v1/gonum/mat"
)

// hog is a classifier whose fit says it needs 400 MB, and notes how many
// of its fits run at once.
type hog struct{}

var hogs struct {
	sync.Mutex
	running, most int
}

func (hog) Fit(ctx context.Context, d engine.Train, rec engine.Recorder) error {
	hogs.Lock()
	hogs.running++
	hogs.most = max(hogs.most, hogs.running)
	hogs.Unlock()
	// Give the other workers the time to start a fit beside this one, if
	// the memory let them (this bounds how long the test waits, it
	// measures nothing).
	time.Sleep(20 * time.Millisecond)
	hogs.Lock()
	hogs.running--
	hogs.Unlock()
	return nil
}

func (hog) Predict(X mat.Matrix) ([]float64, error) {
	r, _ := X.Dims()
	return make([]float64, r), nil
}

func init() {
	engine.Register(engine.Spec{
		Name: "tunetest_hog", Title: "memory hog", Family: "test models",
		Summary: "needs 400 MB a fit", Notes: "none (tests)",
		Tasks:  []engine.Task{datasets.Classification},
		Params: []engine.Param{{Name: "p", Kind: engine.Int, Default: 1, Min: 1, Max: 100, Help: "nothing"}},
		Memory: func(engine.Shape, engine.Values) engine.Need { return engine.Need{Bytes: 400e6, What: "a test matrix"} },
		New:    func(engine.Values) (engine.Model, error) { return hog{}, nil },
	})
}

// A sweep on four workers under a memory limit that holds two points'
// fits runs at most two at once: each point reserves its estimate in the
// search's account, and waits for memory the others hold.
func TestSweepAccountsForThePointsRunningAtOnce(t *testing.T) {
	t.Setenv(engine.MemoryEnv, "1GB")
	d := open(t, "iris")
	spec := lookup(t, "tunetest_hog")
	axes := []tune.Axis{axis(t, "tunetest_hog", "p=1..8")}
	hogs.most = 0
	res, err := tune.Search(context.Background(), d, spec, nil, axes, tune.Options{Eval: eval.Options{Split: 0.2, Seed: 1}, Jobs: 4}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range res.Points {
		if !p.OK() {
			t.Errorf("point %v: %v", p.Values, p.Err)
		}
	}
	if hogs.most > 2 {
		t.Errorf("%d fits of 400 MB ran at once under 1 GB; want at most 2", hogs.most)
	}
}
