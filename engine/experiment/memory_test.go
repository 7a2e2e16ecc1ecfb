package experiment

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
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
	// Time for the other workers to start a fit beside this one, if the
	// memory let them (it bounds the wait; it measures nothing).
	time.Sleep(10 * time.Millisecond)
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
		Name: "experimenttest_hog", Title: "memory hog", Family: "test models",
		Summary: "needs 400 MB a fit", Notes: "none (tests)",
		Tasks:  []engine.Task{datasets.Classification},
		Memory: func(engine.Shape, engine.Values) engine.Need { return engine.Need{Bytes: 400e6, What: "a test matrix"} },
		New:    func(engine.Values) (engine.Model, error) { return hog{}, nil },
	})
}

// An experiment on four workers under a memory limit that holds two
// cells' fits runs at most two at once: each cell reserves its estimate
// and waits for what the others hold, rather than each being checked
// against the limit alone.
func TestCellsShareTheMemory(t *testing.T) {
	t.Setenv(engine.MemoryEnv, "1GB")
	hogs.most = 0
	p := Plan{Datasets: []*datasets.Dataset{open(t, "iris")}, Models: models(t, "experimenttest_hog", "experimenttest_hog"),
		Folds: 2, Repeats: 4, Seed: 1, Jobs: 4}
	o, err := Run(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range o.Cells {
		if c.Err != nil {
			t.Errorf("cell %d/%d/%d: %v", c.Dataset, c.Model, c.Repeat, c.Err)
		}
	}
	if hogs.most > 2 {
		t.Errorf("%d fits of 400 MB ran at once under 1 GB; want at most 2", hogs.most)
	}
}
