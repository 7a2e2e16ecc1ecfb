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
// of its fits run at once. Its fits meet: each waits until four run at
// once, so that four workers free to fit together certainly do; once one
// has waited 200 ms in vain (the memory kept the others out) none waits
// any more, which bounds the test's time.
type hog struct{}

var hogs struct {
	sync.Mutex
	running, most int
	met           chan struct{} // closed once four fits ran at once, or one waited in vain
}

// resetHogs starts a count afresh.
func resetHogs() {
	hogs.Lock()
	defer hogs.Unlock()
	hogs.most, hogs.met = 0, make(chan struct{})
}

// meet ends the fits' waiting (hogs held).
func meet() {
	select {
	case <-hogs.met:
	default:
		close(hogs.met)
	}
}

func (hog) Fit(ctx context.Context, d engine.Train, rec engine.Recorder) error {
	hogs.Lock()
	hogs.running++
	hogs.most = max(hogs.most, hogs.running)
	if hogs.running == 4 {
		meet()
	}
	met := hogs.met
	hogs.Unlock()
	select {
	case <-met:
	case <-ctx.Done():
	case <-time.After(200 * time.Millisecond):
		hogs.Lock()
		meet()
		hogs.Unlock()
	}
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
// search's account, and waits for memory the others hold. Under a limit
// that holds them all, four run at once: the count can see an overlap.
func TestSweepAccountsForThePointsRunningAtOnce(t *testing.T) {
	d := open(t, "iris")
	spec := lookup(t, "tunetest_hog")
	axes := []tune.Axis{axis(t, "tunetest_hog", "p=1..8")}
	for _, c := range []struct {
		limit string
		most  int
	}{{"100GB", 4}, {"1GB", 2}} {
		t.Setenv(engine.MemoryEnv, c.limit)
		resetHogs()
		res, err := tune.Search(context.Background(), d, spec, nil, axes, tune.Options{Eval: eval.Options{Split: 0.2, Seed: 1}, Jobs: 4}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range res.Points {
			if !p.OK() {
				t.Errorf("point %v: %v", p.Values, p.Err)
			}
		}
		if c.most == 4 && hogs.most != 4 || hogs.most > c.most {
			t.Errorf("under %s, %d fits of 400 MB ran at once; want %d", c.limit, hogs.most, c.most)
		}
	}
}
