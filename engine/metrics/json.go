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

// JSONFloat is a float64 that marshals NaN and ±Inf as null; package eval
// uses it too.
type JSONFloat float64

// MarshalJSON writes f in the shortest 'g' form, or null when it is not finite.
func (f JSONFloat) MarshalJSON() ([]byte, error) {
	v := float64(f)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, v, 'g', -1, 64), nil
}

func jfloats(xs []float64) []JSONFloat {
	if xs == nil {
		return nil
	}
	out := make([]JSONFloat, len(xs))
	for i, x := range xs {
		out[i] = JSONFloat(x)
	}
	return out
}

// MarshalJSON writes NaN as null.
func (r ROC) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Class string      `json:"class"`
		FPR   []JSONFloat `json:"fpr"`
		TPR   []JSONFloat `json:"tpr"`
		AUC   JSONFloat   `json:"auc"`
	}{r.Class, jfloats(r.FPR), jfloats(r.TPR), JSONFloat(r.AUC)})
}

// MarshalJSON writes NaN as null.
func (r ClassReport) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Class     string    `json:"class"`
		Precision JSONFloat `json:"precision"`
		Recall    JSONFloat `json:"recall"`
		F1        JSONFloat `json:"f1"`
		Support   int       `json:"support"`
	}{r.Class, JSONFloat(r.Precision), JSONFloat(r.Recall), JSONFloat(r.F1), r.Support})
}
