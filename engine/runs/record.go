// Package runs keeps runs as data: what was asked (data source, target,
// dropped columns, model, typed parameters, evaluation, seed), how it
// went and what came of it (eval.Result, every fold's history). The lab's
// runs table, `tealab train --save`, comparisons and sweeps all hold the same
// Record; a saved record loads back with identical parameters and metrics.
package runs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"strings"
	"time"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/metrics"
)

// Status says how a run stands.
type Status string

const (
	Running   Status = "running"
	Done      Status = "done"
	Cancelled Status = "cancelled"
	Abandoned Status = "abandoned" // left while training; only its history is kept
	Failed    Status = "failed"
)

// Data says which data a run used, as a person chose it, so that it can be
// opened again.
type Data struct {
	Source string   `json:"data"`             // built-in name, generator with knobs, or a path
	Target string   `json:"target,omitempty"` // "" the last column, "-" none
	Task   string   `json:"task,omitempty"`   // as forced (--task); "" inferred
	Drop   []string `json:"drop,omitempty"`   // columns dropped first
	Format string   `json:"format,omitempty"` // csv, tsv or arff when forced (--format); "" told by the name and bytes
	// RowNames is RowNamesNo when a file's row names are read as a column
	// (--row-names no); "" reads them as row names (datasets.ReadDelimited).
	RowNames string `json:"row_names,omitempty"`
	// Test is a supplied test set the model was scored on (eval.Options.Test),
	// read as Source is; "" when the data were split.
	Test string `json:"test,omitempty"`
	// Hash fingerprints the data as the run read them (HashData); a replay
	// compares it with the data now, and a comparison knows the data by it.
	Hash string `json:"hash,omitempty"`
	// TargetName is the target as the run resolved it ("species" for
	// iris's last column), NoTarget for none, so that a run read back
	// without its data still names it; "" in a run recorded before it was
	// kept.
	TargetName string `json:"target_name,omitempty"`
}

// RowNamesNo, as Data.RowNames, reads a file's row names as a feature.
const RowNamesNo = "no"

// ParseRowNames checks a --row-names choice: "auto" (or "") or "no".
func ParseRowNames(s string) (string, error) {
	switch s {
	case "", "auto":
		return "", nil
	case RowNamesNo:
		return RowNamesNo, nil
	}
	return "", fmt.Errorf("%q: use auto (an unnamed first column of distinct values names the rows) or no (read it as a feature, %s)", s, datasets.RowNamesColumn)
}

// Open loads the data as chosen: the source (its row names a column when
// asked), without the dropped columns, with the target and task.
func (d Data) Open() (*datasets.Dataset, error) {
	task := datasets.Auto
	if d.Task != "" {
		t, err := datasets.ParseTask(d.Task)
		if err != nil {
			return nil, err
		}
		task = t
	}
	tab, err := datasets.OpenFormat(d.Source, d.Format)
	if err != nil {
		return nil, err
	}
	if d.RowNames == RowNamesNo {
		tab = tab.RowNamesAsColumn()
	}
	if tab, err = tab.Drop(d.Drop...); err != nil {
		return nil, err
	}
	return tab.Dataset(d.Target, task)
}

// OpenTest loads the supplied test set (Test) as the data are read (the
// format forced, the row names), with its columns matched to those of
// train, the data opened (datasets.Dataset.Align); nil when there is none.
func (d Data) OpenTest(train *datasets.Dataset) (*datasets.Dataset, error) {
	if strings.TrimSpace(d.Test) == "" {
		return nil, nil
	}
	tab, err := datasets.OpenFormat(d.Test, d.Format)
	if err != nil {
		return nil, fmt.Errorf("test set: %w", err)
	}
	if d.RowNames == RowNamesNo {
		tab = tab.RowNamesAsColumn()
	}
	return train.Align(tab)
}

// Record is one run.
type Record struct {
	ID      int
	Data    Data
	Model   string
	Params  engine.Values // every parameter, typed by the spec (a saved run of a model not registered: as text)
	Options eval.Options  // split, folds, leave-one-out, seed
	Started time.Time
	Wall    time.Duration
	Status  Status
	Err     error
	Result  *eval.Result // nil while running, or when the run failed before fitting

	// Dataset and Spec are what the run used; they are not saved (Load
	// looks the spec up again; Data.Open reloads the data).
	Dataset *datasets.Dataset
	Spec    *engine.Spec
}

// New starts a record for spec on d with every parameter's value, as
// Spec.Parse or a form made them, and the options.
func New(id int, data Data, d *datasets.Dataset, spec *engine.Spec, v engine.Values, opt eval.Options) *Record {
	if d != nil {
		data.TargetName = targetOf(d)
	}
	return &Record{ID: id, Data: data, Model: spec.Name, Params: maps.Clone(v), Options: opt,
		Status: Running, Started: time.Now(), Dataset: d, Spec: spec}
}

// Target is the name of the run's target column ("species"), NoTarget
// for none: as recorded, or from its dataset; "" when neither tells (a run
// of an older history, its data not open, its target the last column).
func (r *Record) Target() string {
	switch {
	case r.Data.TargetName != "":
		return r.Data.TargetName
	case r.Dataset != nil:
		return targetOf(r.Dataset)
	case r.Data.Target != "":
		return r.Data.Target
	}
	return ""
}

// targetOf is d's target as Data.TargetName records it.
func targetOf(d *datasets.Dataset) string {
	if d.Target == nil {
		return datasets.NoTarget
	}
	return d.Target.Name
}

// Inputs are the files the record's data are read from, for CheckTarget:
// the source when it is a file (a built-in or a generator is none), or
// datasets.Stdin; the supplied test set's file and the cost matrix's.
func (r *Record) Inputs() []string {
	var in []string
	src := strings.TrimSpace(r.Data.Source)
	if src != "" && !datasets.IsName(src) { // by the source's spelling: a lab may show a file by another name (Dataset.Source)
		in = append(in, src)
	}
	if r.Options.Test != nil && strings.TrimSpace(r.Options.Test.Source) == strings.TrimSpace(r.Data.Test) {
		in = append(in, strings.TrimSpace(r.Data.Test))
	}
	if c := r.Options.Costs; c != nil && strings.TrimSpace(c.Source) != "" {
		in = append(in, strings.TrimSpace(c.Source))
	}
	return in
}

// Settings turns typed values back into settings as --param takes them.
func Settings(v engine.Values) map[string]string {
	out := make(map[string]string, len(v))
	for k, x := range v {
		out[k] = engine.Format(x)
	}
	return out
}

// Run evaluates the record's model on its dataset and finishes the record
// with what came of it (the result, partial when cancelled).
func (r *Record) Run(ctx context.Context, progress func(eval.Progress)) error {
	res, err := eval.Run(ctx, r.Dataset, r.Spec, r.Params, r.Options, progress)
	r.Finish(res, err)
	return err
}

// Finish records the end of the run.
func (r *Record) Finish(res *eval.Result, err error) {
	r.Result, r.Err = res, err
	r.Wall = time.Since(r.Started)
	switch {
	case (res != nil && res.Cancelled) || errors.Is(err, context.Canceled):
		r.Status = Cancelled
	case err != nil:
		r.Status = Failed
	default:
		r.Status = Done
	}
}

// Abandon ends a run left while it trained, keeping the history received.
func (r *Record) Abandon(history []eval.Point) {
	r.Finish(&eval.Result{Cancelled: true, History: history}, context.Canceled)
	r.Status = Abandoned
}

// FoldsScored says how many of the run's folds finished with scores, of
// how many: under k-fold CV its per-fold scores, under leave-one-out its
// one-row folds, else (a hold-out, a fit on all rows) its one fit when it
// has metrics.
func (r *Record) FoldsScored() (done, of int) {
	res, o := r.Result, r.Options
	of = 1
	switch {
	case !r.Task().Supervised():
	case len(o.Plan) > 0:
		of = len(o.Plan)
	case o.LOO && res != nil:
		of = res.Rows
	case o.Folds >= 2:
		of = o.Folds
	}
	switch {
	case res == nil:
	case of == 1:
		if len(res.Metrics) > 0 {
			done = 1
		}
	case o.LOO:
		done = res.ScoredRows()
	default:
		done = len(res.Folds)
	}
	return done, of
}

// Partial labels the result of a cancelled run ("interrupted after 4 of 10
// folds"); "" when the run was not cancelled.
func (r *Record) Partial() string {
	if r.Status != Cancelled {
		return ""
	}
	done, of := r.FoldsScored()
	switch stopped := ""; {
	case r.Result != nil && r.Result.StoppedEarly != "":
		stopped = "stopped early after " + r.Result.StoppedEarly + ", scored as the model it had"
		if of == 1 {
			return "interrupted during the fit: " + stopped
		}
		return fmt.Sprintf("interrupted in fold 1 of %d: %s", of, stopped)
	case of == 1 && done == 0:
		return "interrupted before the fit finished: no scores"
	case of == 1:
		return "interrupted during the fit: scored as far as it got"
	case done == 0:
		return fmt.Sprintf("interrupted before any of the %d folds finished: no scores", of)
	}
	return fmt.Sprintf("interrupted after %d of %d folds", done, of)
}

// Done says whether the run has ended.
func (r *Record) Done() bool { return r.Status != Running }

// Command is the `tealab train` command line that repeats the run, with
// the parameters and the evaluation settings (eval.Args) set away from
// their defaults.
func (r *Record) Command() string {
	args := []string{"--data", r.Data.Source}
	if r.Data.Target != "" {
		args = append(args, "--target", r.Data.Target)
	}
	if r.Data.Task != "" {
		args = append(args, "--task", r.Data.Task)
	}
	if len(r.Data.Drop) > 0 {
		args = append(args, "--drop", strings.Join(r.Data.Drop, ","))
	}
	if r.Data.Format != "" {
		args = append(args, "--format", r.Data.Format)
	}
	if r.Data.RowNames != "" {
		args = append(args, "--row-names", r.Data.RowNames)
	}
	args = append(args, "--model", r.Model)
	for _, kv := range r.ChangedParams() {
		args = append(args, "--param", kv)
	}
	return ShellCommand("tealab train", append(args, eval.Args(r.Evaluation())...))
}

// Evaluation is the run's evaluation settings (eval.ValuesOf its
// Options), its supplied test set as it was named (Data.Test): a run read
// back from a file has that name without the test set's rows.
func (r *Record) Evaluation() engine.Values {
	v := eval.ValuesOf(r.Options)
	if r.Data.Test != "" {
		v[eval.SettingScheme], v[eval.SettingTest] = eval.SchemeTestSet, r.Data.Test
	}
	return v
}

// ChangedParams lists the parameters set away from their defaults, as
// --param takes them ("C=0.5"), in the spec's order.
func (r *Record) ChangedParams() []string {
	spec, err := engine.Lookup(r.Model)
	if err != nil {
		return nil
	}
	var out []string
	for _, p := range spec.Params {
		if x, ok := r.Params[p.Name]; ok && engine.Format(x) != engine.Format(p.Default) {
			out = append(out, p.Name+"="+engine.Format(x))
		}
	}
	return out
}

// ShellCommand joins a command line so that it can be pasted into a POSIX
// shell: arguments with spaces or shell metacharacters are single-quoted.
func ShellCommand(prefix string, args []string) string {
	var b strings.Builder
	b.WriteString(prefix)
	for _, a := range args {
		b.WriteByte(' ')
		if a != "" && strings.Trim(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=.,:/+@%") == "" {
			b.WriteString(a)
			continue
		}
		b.WriteString("'" + strings.ReplaceAll(a, "'", `'\''`) + "'")
	}
	return b.String()
}

// recipe is what reproduces a run, saved beside its result.
type recipe struct {
	Data
	Source string            `json:"source,omitempty"` // provenance as the data describe it
	Model  string            `json:"model"`
	Params map[string]string `json:"params"`
	Split  float64           `json:"split,omitempty"`
	Folds  int               `json:"cv,omitempty"`
	LOO    bool              `json:"loo,omitempty"`
	Seed   uint64            `json:"seed"`
	Reduce int               `json:"reduce,omitempty"` // principal components the features were reduced to first
	// Standardize is yes or no when a person overrode the model's habit.
	Standardize string `json:"standardize,omitempty"`
	// The pipeline a person chose (impute, impute_value,
	// missing_indicator, scale: min-max or robust, discretize, bins,
	// encode, lift); absent from older files, which chose none of it.
	eval.Pipeline
	// Positive is the positive class a person chose (--positive); "" the
	// rarer class, as an older file without it reads.
	Positive string `json:"positive,omitempty"`
	// Costs is the cost matrix the run was scored with (--costs), kept
	// whole (and its file's name), so that a replay needs no file.
	Costs   *metrics.Costs `json:"costs,omitempty"`
	Command string         `json:"command"`
}

// MarshalJSON writes the result (eval.Result's JSON: task, metrics,
// histories, what the model learned, warnings...) followed by the recipe
// that reproduces it; a run that failed before any result has only its
// error beside the recipe.
func (r Record) MarshalJSON() ([]byte, error) {
	rc := r.recipe()
	tail := struct {
		Status  Status `json:"status"`
		Partial string `json:"partial,omitempty"`
		Error   string `json:"error,omitempty"`
		Recipe  recipe `json:"recipe"`
	}{Status: r.Status, Partial: r.Partial(), Recipe: rc}
	if r.Err != nil {
		tail.Error = r.Err.Error()
	}
	ext, err := json.Marshal(tail)
	if err != nil {
		return nil, err
	}
	if r.Result == nil {
		return ext, nil
	}
	res, err := json.Marshal(r.Result)
	if err != nil {
		return nil, err
	}
	out := append(res[:len(res)-1:len(res)-1], ',')
	return append(out, ext[1:]...), nil
}

// recipe is what reproduces the run.
func (r *Record) recipe() recipe {
	rc := recipe{Data: r.Data, Model: r.Model, Params: Settings(r.Params), Split: r.Options.Split, Folds: r.Options.Folds,
		LOO: r.Options.LOO, Seed: r.Options.Seed, Reduce: r.Options.Reduce, Positive: r.Options.Positive, Costs: r.Options.Costs, Command: r.Command(),
		Pipeline: r.Options.Pipeline}
	if r.Options.Standardize != nil {
		rc.Standardize = eval.StandardizeName(r.Options.Standardize)
	}
	if r.Data.Test != "" {
		rc.Split = 0 // scored on the test set: no split was drawn
	}
	if r.Dataset != nil {
		rc.Source = r.Dataset.Source
	}
	return rc
}

// UnmarshalJSON reads what MarshalJSON writes. The dataset and the fitted
// model are not saved: Data.Open reloads one, a new run refits the other.
func (r *Record) UnmarshalJSON(b []byte) error {
	var tail struct {
		Status Status          `json:"status"`
		Error  string          `json:"error"`
		Recipe *recipe         `json:"recipe"`
		Task   json.RawMessage `json:"task"`
	}
	if err := json.Unmarshal(b, &tail); err != nil {
		return err
	}
	if tail.Recipe == nil {
		return errors.New("no recipe: not a saved tealab run")
	}
	rc := tail.Recipe
	*r = Record{Data: rc.Data, Model: rc.Model, Status: tail.Status,
		Options: eval.Options{Split: rc.Split, Folds: rc.Folds, LOO: rc.LOO, Seed: rc.Seed, Reduce: rc.Reduce, Positive: rc.Positive, Costs: rc.Costs,
			Pipeline: rc.Pipeline}}
	std, err := eval.ParseStandardize(rc.Standardize)
	if err != nil {
		return fmt.Errorf("recipe: standardize: %w", err)
	}
	r.Options.Standardize = std
	if tail.Error != "" {
		r.Err = errors.New(tail.Error)
	}
	if r.Params, err = recipeValues(rc); err != nil {
		return err
	}
	if spec, err := engine.Lookup(rc.Model); err == nil {
		r.Spec = spec
	}
	if tail.Task != nil {
		r.Result = &eval.Result{}
		if err := json.Unmarshal(b, r.Result); err != nil {
			return err
		}
	}
	return nil
}

// Task is the task the run's model performs on its data (a clustering or
// reduction on labelled data is still a clustering or reduction); for a
// record loaded without its dataset, the task its result names.
func (r *Record) Task() datasets.Task {
	if r.Spec != nil && r.Dataset != nil {
		if t, ok := r.Spec.RunsOn(r.Dataset.Task); ok {
			return t
		}
	}
	if r.Result != nil {
		if t, err := datasets.ParseTask(r.Result.Task); err == nil {
			return t
		}
	}
	if r.Dataset != nil {
		return r.Dataset.Task
	}
	return datasets.Classification
}

// recipeValues types a saved run's parameters by its model's spec; those
// of a model not registered here stay text, to be shown.
func recipeValues(rc *recipe) (engine.Values, error) {
	spec, err := engine.Lookup(rc.Model)
	if err != nil {
		v := make(engine.Values, len(rc.Params))
		for k, s := range rc.Params {
			v[k] = s
		}
		return v, nil
	}
	v, err := spec.Parse(rc.Params)
	if err != nil {
		return nil, fmt.Errorf("recipe: %w", err)
	}
	return v, nil
}
