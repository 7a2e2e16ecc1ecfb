package modelfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/runs"
)

// maxFileSize bounds what Load reads: a model file larger than this is not
// one tealab wrote for data a terminal holds.
const maxFileSize = 1 << 30

// Model is a model file loaded: the fitted model and preprocessing, ready
// to apply to new rows.
type Model struct {
	File   *File
	Spec   *engine.Spec
	Values engine.Values
	Fitted engine.Model
	Prep   *datasets.Prep
}

// Open loads the model file at path (links followed): anything but a
// regular file of at most 1 GiB (a named pipe, /dev/zero, a directory) is
// refused before a byte is read. Errors name path.
func Open(path string) (*Model, error) {
	f, err := runs.OpenRegular(path, "model file", maxFileSize, false)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m, err := Load(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// Load reads and checks a model file and rebuilds its model. Nothing the
// file names is run: the model is built by its registered spec from the
// parsed parameters, then given its state as data.
func Load(r io.Reader) (*Model, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, errors.New("empty: not a model file")
	}
	if len(data) > maxFileSize {
		return nil, fmt.Errorf("larger than %d MB: not a model file tealab wrote", maxFileSize>>20)
	}
	f, err := decode(data)
	if err != nil {
		return nil, err
	}
	return f.build()
}

// decode reads the header first, so that a future version or another kind
// of file is said as such rather than as a field this version lacks.
func decode(data []byte) (*File, error) {
	var head struct {
		Format  *string         `json:"format"`
		Version json.RawMessage `json:"version"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("not a model file: %s", jsonProblem(err, len(data)))
	}
	if head.Format == nil || *head.Format != Format {
		return nil, fmt.Errorf("not a model file (it has no \"format\": %q)", Format)
	}
	var version int
	if err := json.Unmarshal(head.Version, &version); err != nil {
		return nil, fmt.Errorf("model file has no valid \"version\" (a whole number, %d)", Version)
	}
	if version > Version {
		return nil, fmt.Errorf("model file version %d was written by a newer tealab; this one reads version %d: update tealab", version, Version)
	}
	if version < 1 {
		return nil, fmt.Errorf("model file version %d is not one tealab wrote (this one reads version %d)", version, Version)
	}
	var f File
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("model file: %s", jsonProblem(err, len(data)))
	}
	if dec.More() {
		return nil, errors.New("model file: more after the JSON object")
	}
	if f.Checksum == "" {
		return nil, errors.New("model file has no checksum: it was not written by tealab, or was edited")
	}
	sum, err := checksum(&f)
	if err != nil {
		return nil, err
	}
	if sum != f.Checksum {
		return nil, errors.New("model file was changed after tealab wrote it (its checksum does not match its content); save the model again")
	}
	return &f, nil
}

// jsonProblem words a JSON decoding error of a file of size bytes for a
// person. A syntax error at the very end is the file's end (encoding/json
// says a number cut after its decimal point as a space after it).
func jsonProblem(err error, size int) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF) || err.Error() == "unexpected end of JSON input",
		errors.As(err, &syn) && syn.Offset >= int64(size):
		return "truncated (the JSON ends too early)"
	case errors.As(err, &syn):
		return fmt.Sprintf("not valid JSON at byte %d (%v)", syn.Offset, err)
	case errors.As(err, &typ) && typ.Field == "":
		return fmt.Sprintf("a JSON %s, not an object", typ.Value)
	case errors.As(err, &typ):
		return fmt.Sprintf("field %q holds a JSON %s where a %s belongs", typ.Field, typ.Value, typ.Type)
	}
	return err.Error()
}

// build checks every field and rebuilds the model and its preprocessing.
func (f *File) build() (*Model, error) {
	spec, err := engine.Lookup(f.Model)
	if err != nil {
		return nil, fmt.Errorf("model file: %w", err)
	}
	v, err := spec.Parse(f.Params)
	if err != nil {
		return nil, fmt.Errorf("model file: %w", err)
	}
	task, err := datasets.ParseTask(f.Task)
	if err != nil || f.Task != task.String() {
		return nil, fmt.Errorf("model file: task %q is not one of classification, regression, clustering, reduction", f.Task)
	}
	if !spec.Supports(task) {
		return nil, fmt.Errorf("model file: model %s does not do %s", spec.Name, task)
	}
	if err := f.checkColumns(task); err != nil {
		return nil, fmt.Errorf("model file: %w", err)
	}
	if err := f.checkThreshold(task); err != nil {
		return nil, fmt.Errorf("model file: %w", err)
	}
	if err := f.checkCosts(task); err != nil {
		return nil, fmt.Errorf("model file: %w", err)
	}
	if f.Baseline != nil {
		if err := f.Baseline.check(task, len(f.Classes)); err != nil {
			return nil, fmt.Errorf("model file: %w", err)
		}
	}
	prep := &datasets.Prep{}
	if err := json.Unmarshal(f.Preprocessing, prep); err != nil {
		return nil, fmt.Errorf("model file: %w", err)
	}
	if n := len(prep.Columns()); n == 0 {
		return nil, errors.New("model file: the preprocessing makes no columns")
	}
	m, err := spec.New(v)
	if err != nil {
		return nil, fmt.Errorf("model file: model %s: %w", spec.Name, err)
	}
	if err := Savable(spec, m, f.Task); err != nil {
		return nil, fmt.Errorf("model file: %w", err)
	}
	if len(f.State) == 0 || string(f.State) == "null" {
		return nil, fmt.Errorf("model file: model %s has no state", spec.Name)
	}
	if err := m.(engine.Persistent).UnmarshalState(f.State); err != nil {
		return nil, fmt.Errorf("model file: model %s: state: %w", spec.Name, err)
	}
	if f.Threshold != nil {
		_, prober := m.(engine.Prober)
		_, scorer := m.(engine.Scorer)
		if !prober && !scorer {
			return nil, fmt.Errorf("model file: model %s gives no scores for its threshold to decide on", spec.Name)
		}
	}
	mf := &Model{File: f, Spec: spec, Values: v, Fitted: m, Prep: prep}
	if err := mf.checkPrepInputs(); err != nil {
		return nil, err
	}
	return mf, nil
}

// checkColumns checks the features and classes: names given and distinct,
// kinds known, levels distinct.
func (f *File) checkColumns(task datasets.Task) error {
	if len(f.Features) == 0 {
		return errors.New("no features")
	}
	seen := map[string]bool{}
	for _, c := range f.Features {
		if c.Name == "" || seen[c.Name] {
			return fmt.Errorf("feature %q: every feature needs a name of its own", c.Name)
		}
		seen[c.Name] = true
		switch c.Kind {
		case "numeric":
			if len(c.Levels) > 0 {
				return fmt.Errorf("feature %q: numeric but has levels", c.Name)
			}
		case "nominal":
			if dup := firstDuplicate(c.Levels); dup != "" {
				return fmt.Errorf("feature %q: level %q twice", c.Name, dup)
			}
		default:
			return fmt.Errorf("feature %q: kind %q is not numeric or nominal", c.Name, c.Kind)
		}
	}
	if task == datasets.Classification {
		if len(f.Classes) < 2 {
			return fmt.Errorf("classification needs at least 2 classes, the file lists %d", len(f.Classes))
		}
		if dup := firstDuplicate(f.Classes); dup != "" {
			return fmt.Errorf("class %q twice", dup)
		}
	} else if len(f.Classes) > 0 {
		return fmt.Errorf("%s has no classes", task)
	}
	return nil
}

// checkPrepInputs checks that the preprocessing takes the features.
func (m *Model) checkPrepInputs() error {
	if got, want := m.Prep.Inputs(), len(m.File.Features); got != want {
		return fmt.Errorf("model file: the preprocessing takes %d columns, the file lists %d features", got, want)
	}
	return nil
}

func firstDuplicate(xs []string) string {
	s := slices.Clone(xs)
	slices.Sort(s)
	for i := 1; i < len(s); i++ {
		if s[i] == s[i-1] {
			return s[i]
		}
	}
	return ""
}

// checkThreshold checks the threshold a file keeps: a finite number, for
// a classifier of two classes that names its positive class and gives
// scores (checked once the model is built).
func (f *File) checkThreshold(task datasets.Task) error {
	if f.Threshold == nil {
		return nil
	}
	t := *f.Threshold
	switch {
	case math.IsNaN(t) || math.IsInf(t, 0):
		return fmt.Errorf("threshold %v is not a finite number", t)
	case task != datasets.Classification || len(f.Classes) != 2:
		return errors.New("a threshold is kept for a classifier of two classes only")
	case f.positive() < 0:
		return fmt.Errorf("a threshold is on the positive class's score, and positive %q is not one of the classes", f.Positive)
	}
	return nil
}

// checkCosts checks the cost matrix a file keeps: a classifier's, for its
// classes in their order.
func (f *File) checkCosts(task datasets.Task) error {
	switch {
	case f.Costs == nil:
		return nil
	case task != datasets.Classification:
		return fmt.Errorf("a cost matrix is kept for a classifier only; this model does %s", task)
	}
	return f.Costs.Check(f.Classes)
}
