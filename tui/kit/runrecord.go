package kit

import (
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/metrics"
	"github.com/tealab/tealab/engine/runs"
	"github.com/tealab/tealab/numfmt"
)

// RunRecord is one run of this session: the engine's record of it (what
// was asked, how it went, what came of it) and what the lab adds to draw it.
// It is written only in Update, on the UI goroutine (start, each progress
// step, finish).
type RunRecord struct {
	*runs.Record
	label string // dataLabel, once made

	// HistFold is the fold whose history an abandoned run kept.
	HistFold int

	// Where the fit had got to, from its progress: the fold (1-based) of
	// how many, and whether that fold's fit had reported its last step.
	fold, folds int
	foldDone    bool

	// The run's place in the run history: its id there ("" until it is
	// recorded), its star and name; past marks a run of an earlier session.
	HistID  string
	Starred bool
	Title   string
	Past    bool

	// ReplayOf is the data of the run this one replays, whose fingerprint
	// it is checked against.
	ReplayOf *runs.Data

	// Regions are the run's live decision regions; nil when it has none.
	Regions *LiveRegions
}

// LossTitle names what the run's model reports as its training loss
// ("training loss", "out-of-bag error", "exponential loss").
func LossTitle(r *RunRecord) string { return r.Spec.LossName(r.Task()) }

// Observe notes how far the run has got.
func (r *RunRecord) Observe(p eval.Progress) {
	r.fold, r.folds = p.Fold, p.Folds
	r.foldDone = p.Total > 0 && p.Point.Step >= p.Total
}

// CancelNote says what a cancelled run kept: the scores of the folds that
// finished, and the histories. The folds are counted as the result counts
// them (runs.Record.FoldsScored), so that the note and the figures below it
// agree, leave-one-out's pooled rows included.
func (r *RunRecord) CancelNote() string {
	n := 0
	if r.Result != nil {
		n = len(r.Result.History)
	}
	unit := UnitOf(r.Spec)
	scored, of := r.FoldsScored()
	folds := max(of, r.folds, r.Options.Folds)
	steps := numfmt.Count(n, unit)
	if r.Status == runs.Abandoned {
		if folds <= 1 {
			return fmt.Sprintf("abandoned (esc) after %s: partial history, no final scores", steps)
		}
		f := max(r.HistFold, 1)
		return fmt.Sprintf("abandoned (esc) in fold %d of %d after %s: partial history of fold %d, no final scores", f, folds, steps, f)
	}
	switch {
	case r.Result != nil && r.Result.StoppedEarly != "" && folds <= 1:
		return fmt.Sprintf("cancelled: stopped early after %s, the model it had scored on the held-out rows", r.Result.StoppedEarly)
	case r.Result != nil && r.Result.StoppedEarly != "":
		return fmt.Sprintf("cancelled in fold 1 of %d: stopped early after %s, the model it had scored on fold 1's held-out rows", folds, r.Result.StoppedEarly)
	case folds <= 1:
		return fmt.Sprintf("cancelled after %s: partial history, no final scores", steps)
	case scored == 0:
		return fmt.Sprintf("cancelled in fold 1 of %d: partial history, no fold finished, no scores", folds)
	case scored >= folds:
		return fmt.Sprintf("cancelled in the final fit on all rows · scores of all %s · every fold's history", numfmt.Count(folds, "fold"))
	}
	return fmt.Sprintf("cancelled in fold %d of %d · scores of the %s that finished · every fold's history", scored+1, folds, numfmt.Count(scored, "fold"))
}

// Figures says how the run's metrics were made from its folds (so that
// pooled and per-fold-mean figures never appear unlabelled): "mean ± sd of
// 5 folds", "pooled over 150 one-row folds (leave-one-out)", "on the 30
// held-out rows", or "on all rows" without a split.
func (r *RunRecord) Figures() string { return r.describeFigures(false) }

// FiguresShort is figures for the headline: "mean of 5 folds", "pooled
// over 150 rows", "30 held-out rows".
func (r *RunRecord) FiguresShort() string { return r.describeFigures(true) }

func (r *RunRecord) describeFigures(short bool) string {
	res := r.Result
	if res == nil {
		return ""
	}
	pick := func(shortForm, longForm string) string {
		if short {
			return shortForm
		}
		return longForm
	}
	switch {
	case !r.Task().Supervised():
		return pick("all ", "on all ") + numfmt.Count(res.Rows, "row")
	case r.Options.LOO:
		return pick("pooled over "+numfmt.Count(res.ScoredRows(), "row"),
			"pooled over "+numfmt.Count(res.ScoredRows(), "one-row fold")+" (leave-one-out)")
	case len(res.Folds) > 1:
		return pick("mean of ", "mean ± sd of ") + numfmt.Count(len(res.Folds), "fold")
	case len(res.Folds) == 1:
		return pick("1 fold of "+strconv.Itoa(max(r.folds, r.Options.Folds)), "of the one fold that finished")
	}
	if r.Options.Test != nil || r.Data.Test != "" {
		return pick("", "on the ") + numfmt.Count(res.ScoredRows(), "row") + " of the supplied test set"
	}
	return pick("", "on the ") + numfmt.Count(res.ScoredRows(), "held-out row")
}

// PooledNote says what a pooled view (confusion matrix, ROC) is made of
// when the run's metrics are fold means; "" when they are the same rows.
func (r *RunRecord) PooledNote() string {
	res := r.Result
	switch {
	case res == nil || !r.Task().Supervised():
		return ""
	case r.Options.LOO:
		return "pooled over " + numfmt.Count(res.ScoredRows(), "one-row fold") + ": every row held out once"
	case len(res.Folds) > 1:
		return "pooled over the " + numfmt.Count(len(res.Folds), "fold") + "' held-out rows (" + numfmt.Count(res.ScoredRows(), "row") + "), not the mean of the folds"
	}
	return ""
}

// NoModel says what a run without its fitted model cannot do, and how
// to get it back; "" when the model is at hand. A run read from the
// history keeps its scores and what its model learned (the charts), not
// the model.
func (r *RunRecord) NoModel() string {
	if r.Result == nil || r.Result.Fitted != nil || !r.Past {
		return ""
	}
	return "a run of an earlier session keeps its scores and charts, not its fitted model: it cannot be tried (Try) or saved (S); r on the runs screen (R) runs it again"
}

// Cancelled says whether the run was stopped before it finished (cancelled
// or abandoned).
func (r *RunRecord) Cancelled() bool {
	return r.Status == runs.Cancelled || r.Status == runs.Abandoned
}

// status is one word for the runs table.
func (r *RunRecord) StatusText() string { return string(r.Status) }

// EvalDesc says how the run is evaluated.
func (r *RunRecord) EvalDesc() string {
	if r.Result != nil && r.Result.Eval != "" {
		return r.Result.Eval
	}
	return DescribeEval(r.Options, r.Task())
}

// EvalShort says how the run is evaluated in the runs table's narrow
// column: a run read from the history keeps its supplied test set's name
// (Data.Test), not the set itself.
func (r *RunRecord) EvalShort() string {
	if r.Options.Test == nil && r.Data.Test != "" && r.Task().Supervised() {
		return "test set " + filepath.Base(r.Data.Test)
	}
	return DescribeEval(r.Options, r.Task())
}

// DescribeEval says how o scores a model of task t, for people.
func DescribeEval(o eval.Options, t datasets.Task) string {
	switch {
	case !t.Supervised():
		return "all rows (no split)"
	case o.Test != nil:
		return "test set " + filepath.Base(o.Test.Source)
	case o.LOO:
		return "leave-one-out"
	case o.Folds >= 2:
		return fmt.Sprintf("%d-fold CV", o.Folds)
	}
	test := int(math.Round(o.Split * 100))
	return fmt.Sprintf("%d/%d split", 100-test, test)
}

// wall is the run's time in seconds, one definition for the runs table,
// the comparison and the summary: the evaluation's wall time
// (eval.Result.Timing: fitting, scoring and the rest), not the start of
// its worker and the hashing of its data around it; Record.Wall for a
// run without a result.
func (r *RunRecord) WallSeconds() float64 {
	if r.Result != nil {
		if t, _ := r.Result.Timing(); t > 0 {
			return t
		}
	}
	return r.Wall.Seconds()
}

// Score returns the run's primary metric, its spread over folds and its
// baseline (NaN when unknown).
func (r *RunRecord) Score() (name string, v, std, base float64) {
	v, std, base = math.NaN(), math.NaN(), math.NaN()
	if r.Result == nil {
		return metrics.Primary(r.Task(), nil), v, std, base
	}
	name = metrics.Primary(r.Task(), r.Result.Metrics)
	if x, ok := r.Result.Metrics[name]; ok {
		v = x
	}
	if x, ok := r.Result.Std[name]; ok {
		std = x
	}
	if x, ok := r.Result.Baseline[name]; ok {
		base = x
	}
	return name, v, std, base
}

// KeyParams lists the parameters set away from their defaults.
func KeyParams(spec *engine.Spec, v engine.Values) string {
	var parts []string
	for _, p := range spec.Params {
		if x, ok := v[p.Name]; ok && engine.Format(x) != engine.Format(p.Default) {
			parts = append(parts, p.Name+"="+engine.Format(x))
		}
	}
	if len(parts) == 0 {
		return "defaults"
	}
	return strings.Join(parts, " ")
}

// SearchText is what the filter searches: number, name, star, data,
// model, parameters, status, and whether the run is an earlier session's.
func (r *RunRecord) SearchText() string {
	text := fmt.Sprintf("#%d %s %s %s %s %s", r.ID, r.Title, r.DataLabel(), r.Spec.Name, KeyParams(r.Spec, r.Params), r.StatusText())
	if r.Starred {
		text += " * ★ starred"
	}
	if r.Past {
		text += " earlier"
	}
	return text
}

func (r *RunRecord) targetName() string {
	switch t := r.Target(); t {
	case "": // a run of an older history, its data not open
		return "the last column"
	case datasets.NoTarget:
		return ""
	default:
		return t
	}
}

// SourceDesc is where the run's data came from, a built-in or a
// generator named as its table names it whether its data are open or not.
func (r *RunRecord) SourceDesc() string {
	_, source := pastData(r.Record)
	if r.Dataset != nil && !datasets.IsName(r.Data.Source) {
		return r.Dataset.Source
	}
	return source
}

// TargetDesc is "species · classification" or "none · clustering".
func (r *RunRecord) TargetDesc() string {
	t := r.targetName()
	if t == "" {
		t = "none"
	}
	return t + " · " + r.Task().String()
}

// DataLabel names the run's data in the runs table: the dataset's name,
// with a generator's knobs where they differ from its defaults (moons
// n=50), and the target when one other than the default was chosen.
func (r *RunRecord) DataLabel() string {
	if r.label != "" {
		return r.label
	}
	name, source := pastData(r.Record)
	if r.Dataset != nil {
		name, source = r.Dataset.Name, r.Dataset.Source
	}
	l := name
	if k := knobsChanged(name, source); k != "" {
		l += " " + k
	}
	if r.Data.Target != "" && r.Data.Target != datasets.NoTarget {
		l += " →" + r.Data.Target
	}
	r.label = l
	return l
}

// pastData is the name and provenance of a loaded run's data, as its
// result and recipe recorded them: for a built-in or a generator, as its
// table spells it ("builtin:iris", "moons(n=50, noise=0.1, seed=1)").
func pastData(r *runs.Record) (name, source string) {
	name, source = r.Data.Source, r.Data.Source
	if r.Result != nil && r.Result.Dataset != "" {
		name = r.Result.Dataset
	}
	if p, ok := datasets.Provenance(r.Data.Source); ok {
		source = p
	}
	return name, source
}

// knobsChanged lists the knobs of generator name that source (as
// Table.Source spells it: "moons(n=50, noise=0.1, seed=1)") sets away from
// their defaults; "" for other sources.
func knobsChanged(name, source string) string {
	inner, ok := strings.CutPrefix(source, name+"(")
	if !ok || !strings.HasSuffix(inner, ")") {
		return ""
	}
	inner = strings.TrimSuffix(inner, ")")
	var knobs []datasets.Knob
	for _, e := range datasets.Catalog() {
		if e.Name == name && e.Kind == "generator" {
			knobs = e.Knobs
		}
	}
	var out []string
	for _, kv := range strings.Split(inner, ", ") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		changed := true
		for _, kn := range knobs {
			if kn.Name == k {
				if x, err := strconv.ParseFloat(v, 64); err == nil && x == kn.Default {
					changed = false
				}
			}
		}
		if changed {
			out = append(out, kv)
		}
	}
	return strings.Join(out, " ")
}

// Entry is the run as the history holds it (its id there, or its number
// in the lab when it is not recorded).
func (r *RunRecord) Entry() *runs.Entry {
	e := runs.NewEntry(r.Record)
	e.ID, e.Star, e.Name = r.HistID, r.Starred, r.Title
	if e.ID == "" {
		e.ID = fmt.Sprint(r.ID)
	}
	return e
}

// ScoreCell is the run's primary metric, its spread over folds, or how
// the run stands when it has none.
func (r *RunRecord) ScoreCell() string {
	name, v, std, _ := r.Score()
	if math.IsNaN(v) {
		if st := r.StatusText(); st != "done" {
			return st
		}
		return "–"
	}
	score := metrics.Lookup(name).Short + " " + numfmt.Score(v)
	if !math.IsNaN(std) && r.Options.Folds >= 2 {
		score += " " + numfmt.Spread(std)
	}
	return score
}

// VsBaseline says how the run's primary score compares with its baseline,
// only beyond the folds' noise; short for a narrow table.
func (r *RunRecord) VsBaseline(long bool) string {
	name, v, _, base := r.Score()
	if !r.Done() || r.Err != nil || math.IsNaN(v) || math.IsNaN(base) {
		return r.StatusText()
	}
	vs := runs.VersusBaseline(name, r.Record)
	if !long {
		switch vs {
		case runs.Tie:
			return "≈ noise"
		case runs.Unknown:
			return "? spread"
		}
	}
	return vs.String()
}

// WallCell is the run's wall time (runRecord.wall), "–" while it runs.
func (r *RunRecord) WallCell() string {
	if !r.Done() {
		return "–"
	}
	return numfmt.Seconds(r.WallSeconds())
}

// UnitOf is what one step of sp's fit is ("epoch", "tree"; "step" when it
// does not say).
func UnitOf(sp *engine.Spec) string {
	if sp.Unit == "" {
		return "step"
	}
	return sp.Unit
}
