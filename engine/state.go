package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// Helpers for Persistent models. A state is a small struct of exported
// fields written as JSON; reading one back is strict (unknown fields and
// trailing data are errors, since a file edited by hand should say so), and
// every piece is checked against the others with a StateCheck before the
// model takes it, so that a bad file is an error and never a panic.

// EncodeState writes a model's state as JSON. JSON has no NaN or infinity,
// so a state holding one is refused with an error naming the model: a fit
// that produced one is not worth keeping.
func EncodeState(model string, state any) ([]byte, error) {
	b, err := json.Marshal(state)
	if uv := (*json.UnsupportedValueError)(nil); errors.As(err, &uv) {
		return nil, fmt.Errorf("%s: the fitted state holds %s, which a model file cannot keep; refit on finite data", model, uv.Str)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", model, err)
	}
	return b, nil
}

// MarshalFitted is a Persistent model's MarshalState: ErrNotFitted before
// Fit, else its state, made only then, through EncodeState.
func MarshalFitted(model string, fitted bool, state func() any) ([]byte, error) {
	if !fitted {
		return nil, ErrNotFitted
	}
	return EncodeState(model, state())
}

// DecodeState reads JSON that EncodeState wrote into state, strictly; its
// errors begin "MODEL state:".
func DecodeState(model string, data []byte, state any) error {
	if err := DecodeStrict(data, state); err != nil {
		return fmt.Errorf("%s state: %w", model, err)
	}
	return nil
}

// DecodeStrict is DecodeState for callers that name the model themselves:
// unknown fields, a missing field (one not marked omitempty), a null,
// trailing data and truncation are all errors that say which.
func DecodeStrict(data []byte, state any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(state); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return errors.New("the JSON ends too soon (truncated)")
		}
		if te := (*json.UnmarshalTypeError)(nil); errors.As(err, &te) {
			if te.Field == "" {
				return fmt.Errorf("the state is a JSON %s; want an object", te.Value)
			}
			field := te.Field[strings.LastIndex(te.Field, ".")+1:]
			return fmt.Errorf("field %q holds a JSON %s; want %s", field, te.Value, kindName(te.Type))
		}
		return err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errors.New("unexpected data after the state's JSON object")
	}
	// Decoding leaves a field that is missing or null as it was, which
	// would load a zero weight without a word: both are errors.
	if hasNull(data) {
		return errors.New("null is not a value a state holds")
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(data, &keys); err != nil {
		return err
	}
	if missing := missingField(reflect.TypeOf(state).Elem(), keys); missing != "" {
		return fmt.Errorf("field %q is missing", missing)
	}
	return nil
}

// hasNull reports whether the JSON data holds a null anywhere.
func hasNull(data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		if tok == nil {
			return true
		}
	}
}

// missingField is the JSON name of a field of the struct type t that keys
// lacks, "" when none: every field but those marked omitempty is required.
func missingField(t reflect.Type, keys map[string]json.RawMessage) string {
	if t.Kind() != reflect.Struct {
		return ""
	}
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if f.Anonymous && tag == "" {
			if m := missingField(f.Type, keys); m != "" {
				return m
			}
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if !f.IsExported() || name == "-" || strings.Contains(opts, "omitempty") {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if _, ok := keys[name]; !ok {
			return name
		}
	}
	return ""
}

// StateRows is a matrix as rows, the form states keep matrices in.
func StateRows(m *mat.Dense) [][]float64 {
	if m == nil {
		return nil
	}
	r, _ := m.Dims()
	rows := make([][]float64, r)
	for i := range rows {
		rows[i] = append([]float64(nil), m.RawRowView(i)...)
	}
	return rows
}

// StateCheck validates a decoded state piece by piece. It keeps the first
// problem found (later checks then do nothing and report false), so a
// model's UnmarshalState reads as a list of checks followed by one Err.
type StateCheck struct {
	model string
	err   error
}

// NewStateCheck starts the checks of a model's state; model names it in
// every error.
func NewStateCheck(model string) *StateCheck { return &StateCheck{model: model} }

// Err is the first problem found, nil if none.
func (c *StateCheck) Err() error { return c.err }

// OK reports whether no problem has been found so far.
func (c *StateCheck) OK() bool { return c.err == nil }

// Failf records a problem (unless one was found already) and returns false.
func (c *StateCheck) Failf(format string, args ...any) bool {
	if c.err == nil {
		c.err = fmt.Errorf("%s state: %s", c.model, fmt.Sprintf(format, args...))
	}
	return false
}

// That records the problem when ok is false, and returns ok.
func (c *StateCheck) That(ok bool, format string, args ...any) bool {
	if c.err != nil {
		return false
	}
	if !ok {
		return c.Failf(format, args...)
	}
	return true
}

// Len checks that field has want entries.
func (c *StateCheck) Len(field string, got, want int) bool {
	return c.That(got == want, "%s has %d entries; want %d", field, got, want)
}

// Range checks that the integer field lies in [lo, hi].
func (c *StateCheck) Range(field string, v, lo, hi int) bool {
	return c.That(v >= lo && v <= hi, "%s is %d; want %d to %d", field, v, lo, hi)
}

// Finite checks that every value of field is a finite number.
func (c *StateCheck) Finite(field string, v ...float64) bool {
	if c.err != nil {
		return false
	}
	for i, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return c.Failf("%s entry %d is %v; want a finite number", field, i+1, x)
		}
	}
	return true
}

// Vector checks that field has n finite values.
func (c *StateCheck) Vector(field string, v []float64, n int) bool {
	return c.Len(field, len(v), n) && c.Finite(field, v...)
}

// Names checks that field names n things: exactly n names, or none (a fit
// on data without names).
func (c *StateCheck) Names(field string, names []string, n int) bool {
	return c.That(len(names) == 0 || len(names) == n, "%s has %d names; want %d (or none)", field, len(names), n)
}

// Shape checks, without allocating, that rows is an r × cols matrix of
// finite values (r and cols at least 1). A size a state declares (its
// inputs, its classes, an image's height) is only trusted once the arrays
// it sizes are found to have it: a model file's checksum is no signature,
// so a file edited to declare a billion inputs over a few weights must be
// refused by this check, not by the system running out of memory when the
// model makes room for them.
func (c *StateCheck) Shape(field string, rows [][]float64, r, cols int) bool {
	if !c.That(r > 0 && cols > 0, "%s would be %d × %d; want at least one row and column", field, r, cols) ||
		!c.That(len(rows) == r, "%s has %d rows; want %d", field, len(rows), r) {
		return false
	}
	for i, row := range rows {
		if !c.Vector(fmt.Sprintf("%s row %d", field, i+1), row, cols) {
			return false
		}
	}
	return true
}

// Matrix checks rows as Shape does and returns them as a *mat.Dense; nil
// after a problem.
func (c *StateCheck) Matrix(field string, rows [][]float64, r, cols int) *mat.Dense {
	if !c.Shape(field, rows, r, cols) {
		return nil
	}
	data := make([]float64, 0, r*cols)
	for _, row := range rows {
		data = append(data, row...)
	}
	return mat.NewDense(r, cols, data)
}

// Alloc checks, before a model builds what its state implies beyond the
// arrays the state holds (a network's working buffers, an index, a tally
// per class), that count values of size bytes each fit in the memory
// tealab may use (Memory), and that count is a size at all; what names
// them ("the image's pixel index").
func (c *StateCheck) Alloc(what string, count, size float64) bool {
	if c.err != nil {
		return false
	}
	if !(count >= 0 && count < 1<<47) { // NaN, negative, or beyond any slice
		return c.Failf("%s would hold %v values: the sizes it is built from cannot be a fitted model's", what, count)
	}
	if have, from := Memory(); have > 0 && count*size > have {
		return c.Failf("%s would need %s, more than the %s %s: the sizes it is built from cannot be a fitted model's",
			what, Bytes(count*size), Bytes(have), from)
	}
	return true
}

// kindName says what a value of type t is written as in JSON.
func kindName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "a list"
	}
	return "an object"
}

// Assigner is a clustering that labels only the rows it was fitted on
// (a Labeler, not a Predictor: evaluation and the views treat it as such)
// but can place new rows by a stated rule, for a model file: hierarchical
// and spectral clustering put a row in the cluster of its nearest training
// row.
type Assigner interface {
	Assign(X mat.Matrix) ([]float64, error)
}
