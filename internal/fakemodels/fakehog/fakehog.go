// Package fakehog registers "fake-hog", a classifier whose fit says it
// needs 400 MB and counts how many of its fits run at once: the tests of
// the worker pools that share the memory (sweeps, the Experimenter) import
// it for its side effect and read Most.
package fakehog

import (
	"context"
	"sync"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

// Name is the registered model's name; its one parameter, p (an int in
// 1..100), does nothing but give a sweep an axis.
const Name = "fake-hog"

// Need is what each fit says it needs.
const Need = 400e6

// The fits meet: each waits until four run at once, so that four workers
// free to fit together certainly do; once one has waited 200 ms in vain
// (the memory kept the others out) none waits any more, which bounds a
// test's time.
var hogs struct {
	sync.Mutex
	running, most int
	met           chan struct{} // closed once four fits ran at once, or one waited in vain
}

// Reset starts a count afresh.
func Reset() {
	hogs.Lock()
	defer hogs.Unlock()
	hogs.most, hogs.met = 0, make(chan struct{})
}

// Most is the most fits that ran at once since Reset.
func Most() int {
	hogs.Lock()
	defer hogs.Unlock()
	return hogs.most
}

// meet ends the fits' waiting (hogs held).
func meet() {
	select {
	case <-hogs.met:
	default:
		close(hogs.met)
	}
}

type hog struct{}

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
	Reset()
	engine.Register(engine.Spec{
		Name: Name, Title: "memory hog (test)", Family: "test",
		Summary: "needs 400 MB a fit", Notes: "none (tests)",
		Tasks:  []engine.Task{datasets.Classification},
		Params: []engine.Param{{Name: "p", Kind: engine.Int, Default: 1, Min: 1, Max: 100, Help: "nothing"}},
		Memory: func(engine.Shape, engine.Values) engine.Need { return engine.Need{Bytes: Need, What: "a test matrix"} },
		New:    func(engine.Values) (engine.Model, error) { return hog{}, nil },
	})
}
