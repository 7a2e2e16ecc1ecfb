package kit

import (
	"time"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
)

// The application's messages between screens and the root. Messages that
// come back from background work carry an identity (run id, load sequence)
// and are dropped when stale. Progress and the end of a run are in jobs.go.

// DatasetChosenMsg: the data screen settled on a dataset (enter on the
// preview, or the start-up choice).
type DatasetChosenMsg struct {
	Table  *datasets.Table
	Ds     *datasets.Dataset
	Source string   // as datasets.Open spells it
	Target string   // "" for the default (last column), NoTarget for none
	Task   string   // as forced at start-up; "" inferred
	Drop   []string // columns dropped before the target was chosen
}

// ModelChosenMsg: the model screen picked a model.
type ModelChosenMsg struct{ Spec *engine.Spec }

// TrainRequestMsg: the hyperparameter screen asks for a run.
type TrainRequestMsg struct {
	Values engine.Values
	Opts   eval.Options
}

// ShowRunMsg: the runs screen asks for one run's results.
type ShowRunMsg struct{ Run int }

// CancelRunMsg: the training screen asks to stop run, keeping what it has
// learned so far (the partial result still arrives and is shown).
type CancelRunMsg struct{ Run int }

// RetrainMsg: the results screen asks to edit the run's parameters again.
type RetrainMsg struct{ Run int }

// TableLoadedMsg: a data source finished loading (off the UI goroutine).
type TableLoadedMsg struct {
	Seq    int
	Source string
	Table  *datasets.Table
	Err    error
}

// ProgressMsg carries the steps reported since the previous message of run.
type ProgressMsg struct {
	Run   int
	Steps []eval.Progress // in order; never shared with the worker
}

// QuitMsg: the person confirmed quitting while a fit ran.
type QuitMsg struct{}

// SweepRequestMsg: the hyperparameter screen asks for a sweep of param
// (with the form's other values), or for a learning curve.
type SweepRequestMsg struct {
	Values   engine.Values
	Opts     eval.Options
	Param    string
	Learning bool
}

// SweepTrainMsg: the sweep screen asks for a full run of a point.
type SweepTrainMsg struct {
	Values engine.Values
	Opts   eval.Options
}

// OpenFeaturesMsg: the data screen asks for the Features screen on the
// dataset it previews (its target as chosen there).
type OpenFeaturesMsg struct{ Ds *datasets.Dataset }

// OpenExperimentMsg asks for the Experimenter on the session's data.
type OpenExperimentMsg struct{}

// OpenLecturesMsg: a first screen asks for the lecture notes'
// experiments.
type OpenLecturesMsg struct{}

// RunsNoteMsg: what became of an action on the runs screen (an export, an
// edit of the history), said on that screen.
type RunsNoteMsg struct{ Note string }

// QuitWait is how long quitting waits for a cancelled run to stop.
const QuitWait = 500 * time.Millisecond
