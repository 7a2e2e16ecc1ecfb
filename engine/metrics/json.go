package metrics

import (
	"encoding/json"
	"math"
	"strconv"
)

// encoding/json refuses NaN and ±Inf, and undefined scores are NaN here (an
// ROC curve of a class absent from a fold, a macro average over nothing). The
// types that can hold them write them as null instead, so that marshalling a
// result never fails.

// jfloat is a float64 that marshals non-finite values as null.
type jfloat float64

func (f jfloat) MarshalJSON() ([]byte, error) {
	v := float64(f)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, v, 'g', -1, 64), nil
}

func jfloats(xs []float64) []jfloat {
	if xs == nil {
		return nil
	}
	out := make([]jfloat, len(xs))
	for i, x := range xs {
		out[i] = jfloat(x)
	}
	return out
}

// MarshalJSON writes NaN as null.
func (r ROC) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Class string   `json:"class"`
		FPR   []jfloat `json:"fpr"`
		TPR   []jfloat `json:"tpr"`
		AUC   jfloat   `json:"auc"`
	}{r.Class, jfloats(r.FPR), jfloats(r.TPR), jfloat(r.AUC)})
}

// MarshalJSON writes NaN as null.
func (r ClassReport) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Class     string `json:"class"`
		Precision jfloat `json:"precision"`
		Recall    jfloat `json:"recall"`
		F1        jfloat `json:"f1"`
		Support   int    `json:"support"`
	}{r.Class, jfloat(r.Precision), jfloat(r.Recall), jfloat(r.F1), r.Support})
}
