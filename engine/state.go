package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"

	"gonum.org/v1/gonum/mat"
)

// DecodeState reads a model's state (Persistent.UnmarshalState) into v,
// refusing fields v does not have and anything after the value: the state
// of another model, or a truncated one, fails here instead of loading half
// read.
func DecodeState(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return errors.New("the state is truncated")
		}
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("the state has data after its end")
	}
	return nil
}

// Assigner is a clustering that labels only the rows it was fitted on
// (a Labeler, not a Predictor: evaluation and the views treat it as such)
// but can place new rows by a stated rule, for a model file: hierarchical
// and spectral clustering put a row in the cluster of its nearest training
// row.
type Assigner interface {
	Assign(X mat.Matrix) ([]float64, error)
}
