package tui

import (
	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
)

// The application's messages between screens and the root. Messages that
// come back from background work carry an identity (run id, load sequence)
// and are dropped when stale. Progress and the end of a run are in jobs.go.

// datasetChosenMsg: the data screen settled on a dataset (enter on the
// preview, or the start-up choice).
type datasetChosenMsg struct {
	table  *datasets.Table
	ds     *datasets.Dataset
	source string   // as datasets.Open spells it
	target string   // "" for the default (last column), NoTarget for none
	task   string   // as forced at start-up; "" inferred
	drop   []string // columns dropped before the target was chosen
}

// modelChosenMsg: the model screen picked a model.
type modelChosenMsg struct{ spec *engine.Spec }

// trainRequestMsg: the hyperparameter screen asks for a run.
type trainRequestMsg struct {
	values engine.Values
	opts   eval.Options
}

// showRunMsg: the runs screen asks for one run's results.
type showRunMsg struct{ run int }

// cancelRunMsg: the training screen asks to stop run, keeping what it has
// learned so far (the partial result still arrives and is shown).
type cancelRunMsg struct{ run int }

// retrainMsg: the results screen asks to edit the run's parameters again.
type retrainMsg struct{ run int }

// tableLoadedMsg: a data source finished loading (off the UI goroutine).
type tableLoadedMsg struct {
	seq    int
	source string
	table  *datasets.Table
	err    error
}
