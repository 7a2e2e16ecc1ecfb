package modelfile

import (
	"slices"

	"gonum.org/v1/gonum/mat"

	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/metrics"
	"github.com/tealab/tealab/engine/runs"
)

// Format is the value of a model file's "format" field.
const Format = "tealab-model"

// Version is the layout of model files this tealab writes, and the
// newest it reads. Version 2 added "baseline"; a version 1 file loads
// (its scored predictions have no baseline). "positive", "threshold" and
// "costs" came later, optional, within version 2: a file without them
// loads as before.
const Version = 2

// File is a model file's content, field by field (the package comment
// says what each holds).
type File struct {
	Format        string             `json:"format"`
	Version       int                `json:"version"`
	Tealab        string             `json:"tealab"`
	Model         string             `json:"model"`
	Params        map[string]string  `json:"params"`
	Task          string             `json:"task"`
	Target        string             `json:"target,omitempty"`
	Features      []Feature          `json:"features"`
	Classes       []string           `json:"classes,omitempty"`
	Positive      string             `json:"positive,omitempty"`
	Threshold     *float64           `json:"threshold,omitempty"`
	Costs         *metrics.Costs     `json:"costs,omitempty"`
	Preprocessing json.RawMessage    `json:"preprocessing"`
	State         json.RawMessage    `json:"state"`
	Metrics       map[string]float64 `json:"metrics,omitempty"`
	Baseline      *Baseline          `json:"baseline,omitempty"`
	TrainedOn     TrainedOn          `json:"trained_on"`
	Created       time.Time          `json:"created"`
	Checksum      string             `json:"checksum,omitempty"`
}

// Feature is a raw input column the model needs.
type Feature struct {
	Name   string   `json:"name"`
	Kind   string   `json:"kind"`             // "numeric" or "nominal"
	Levels []string `json:"levels,omitempty"` // a nominal column's levels, code = index
	Unused bool     `json:"unused,omitempty"` // dropped by the preprocessing: may be absent
}

// TrainedOn says what data the model learned from.
type TrainedOn struct {
	Source   string `json:"source"`           // built-in name, generator with knobs, or path
	Dataset  string `json:"dataset"`          // the data set's name
	Rows     int    `json:"rows"`             // rows of the data set
	Eval     string `json:"eval,omitempty"`   // the evaluation the metrics come from
	FittedOn string `json:"fitted_on"`        // the rows the saved model was fitted on
	SHA256   string `json:"sha256,omitempty"` // of the source file, when it was a file
}

// ErrNotSavable matches (errors.Is) Save's error for a result whose model
// cannot be written to a file (it is not engine.Persistent, or it cannot
// be applied to new rows).
var ErrNotSavable = errors.New("cannot be saved")

// notSavable says why a model cannot be saved, in its own words.
type notSavable struct{ msg string }

func (e notSavable) Error() string        { return e.msg }
func (e notSavable) Is(target error) bool { return target == ErrNotSavable }

func notSavablef(format string, a ...any) error { return notSavable{fmt.Sprintf(format, a...)} }

// Save writes the shown model of res (res.Fitted with res.Prep), run on d
// with spec and parameters v, as a model file.
func Save(w io.Writer, res *eval.Result, d *datasets.Dataset, spec *engine.Spec, v engine.Values) error {
	data, err := Encode(res, d, spec, v)
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}

// WriteFile saves as Save does to path, atomically and never over one of
// inputs (the files the run read), as `tealab train --save` writes.
func WriteFile(path string, res *eval.Result, d *datasets.Dataset, spec *engine.Spec, v engine.Values, inputs ...string) error {
	if err := runs.CheckTarget(path, inputs...); err != nil {
		return err
	}
	data, err := Encode(res, d, spec, v)
	if err != nil {
		return err
	}
	return runs.WriteFile(path, data)
}

// Savable says whether res's shown model can be saved, and if not why, in
// a sentence naming the model: to refuse before a long fit.
func Savable(spec *engine.Spec, m engine.Model, task string) error {
	if m == nil {
		return notSavablef("model %s: no fitted model to save", spec.Name)
	}
	if _, ok := m.(engine.Persistent); !ok {
		return notSavablef("model %s cannot be saved to a model file yet", spec.Name)
	}
	if task == datasets.Reduction.String() {
		if _, ok := m.(engine.Transformer); !ok {
			return notSavablef("model %s cannot project new rows, so a model file of it could not be applied", spec.Name)
		}
		return nil
	}
	if _, ok := assigner(m); !ok {
		return notSavablef("model %s cannot assign new rows (it labels only the rows it was fitted on), so a model file of it could not be applied", spec.Name)
	}
	return nil
}

// assigner is how a saved model answers for new rows: its predictions, or
// for a clustering that labels only its own rows (hierarchical, spectral),
// the cluster of each new row's nearest training row (engine.Assigner).
func assigner(m engine.Model) (func(X mat.Matrix) ([]float64, error), bool) {
	switch a := m.(type) {
	case engine.Predictor:
		return a.Predict, true
	case engine.Assigner:
		return a.Assign, true
	}
	return nil, false
}

// Encode is the model file Save writes, as indented JSON.
func Encode(res *eval.Result, d *datasets.Dataset, spec *engine.Spec, v engine.Values) ([]byte, error) {
	if res == nil || d == nil || spec == nil {
		return nil, errors.New("model file: nothing to save")
	}
	if err := Savable(spec, res.Fitted, res.Task); err != nil {
		return nil, err
	}
	state, err := res.Fitted.(engine.Persistent).MarshalState()
	if err != nil {
		return nil, fmt.Errorf("model %s: state: %w", spec.Name, err)
	}
	prep, err := json.Marshal(res.Prep)
	if err != nil {
		return nil, err
	}
	f := &File{
		Format: Format, Version: Version, Tealab: runs.Version, Model: spec.Name,
		Params: runs.Settings(v), Task: res.Task, Features: features(d.Features, res.Prep.Used()),
		Preprocessing: prep, State: state, Metrics: finite(res.Metrics),
		TrainedOn: TrainedOn{Source: d.Source, Dataset: d.Name, Rows: d.Rows(), Eval: res.Eval,
			FittedOn: res.FittedOn, SHA256: d.SHA256},
		Created: time.Now().UTC().Truncate(time.Second),
	}
	if d.Target != nil && (res.Task == datasets.Classification.String() || res.Task == datasets.Regression.String()) {
		f.Target = d.Target.Name
	}
	if res.Task == datasets.Classification.String() {
		f.Classes = d.Classes
	}
	if f.Target != "" {
		f.Baseline = baselineOf(res, d)
		f.Positive = res.Positive
		if res.Threshold != nil && len(f.Classes) == 2 && f.Positive != "" {
			t := *res.Threshold
			f.Threshold = &t
		}
		f.Costs = res.Costs
	}
	if f.Checksum, err = checksum(f); err != nil {
		return nil, err
	}
	out, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}

// features describes the raw input columns, and which the preprocessing
// does not use.
func features(cols []datasets.Column, used []bool) []Feature {
	out := make([]Feature, len(cols))
	for j, c := range cols {
		out[j] = Feature{Name: c.Name, Kind: c.Kind.String(), Unused: j < len(used) && !used[j]}
		if c.Kind == datasets.Nominal {
			out[j].Levels = c.Levels
		}
	}
	return out
}

// finite keeps the metrics JSON can hold (a NaN metric is "not defined").
func finite(m map[string]float64) map[string]float64 {
	out := map[string]float64{}
	for k, x := range m {
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			out[k] = x
		}
	}
	return out
}

// checksum is the SHA-256 of f without its checksum, as compact JSON.
func checksum(f *File) (string, error) {
	g := *f
	g.Checksum = ""
	data, err := json.Marshal(&g)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]), nil
}

// positive is the code of the positive class of two (the run's, kept in
// the file), or -1: more classes, or a file that names none.
func (f *File) positive() int {
	return slices.Index(f.Classes, f.Positive)
}
