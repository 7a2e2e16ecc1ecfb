package metrics

import (
	"encoding/json"

	"github.com/tealab/tealab/numfmt"
)

// encoding/json refuses NaN and ±Inf, and undefined scores are NaN here (an
// ROC curve of a class absent from a fold, a macro average over nothing). The
// types that can hold them write them as null instead, so that marshalling a
// result never fails.

// JSONFloat is a float64 that marshals NaN and ±Inf as null (and reads
// null back as NaN).
type JSONFloat = numfmt.Float

func jfloats(xs []float64) []JSONFloat { return numfmt.Floats(xs) }

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

// UnmarshalJSON reads what MarshalJSON writes (null as NaN).
func (r *ROC) UnmarshalJSON(b []byte) error {
	var v struct {
		Class string      `json:"class"`
		FPR   []JSONFloat `json:"fpr"`
		TPR   []JSONFloat `json:"tpr"`
		AUC   JSONFloat   `json:"auc"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*r = ROC{Class: v.Class, FPR: numfmt.Unfloats(v.FPR), TPR: numfmt.Unfloats(v.TPR), AUC: float64(v.AUC)}
	return nil
}

// UnmarshalJSON reads what MarshalJSON writes (null as NaN).
func (r *ClassReport) UnmarshalJSON(b []byte) error {
	var v struct {
		Class     string    `json:"class"`
		Precision JSONFloat `json:"precision"`
		Recall    JSONFloat `json:"recall"`
		F1        JSONFloat `json:"f1"`
		Support   int       `json:"support"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*r = ClassReport{Class: v.Class, Precision: float64(v.Precision), Recall: float64(v.Recall), F1: float64(v.F1), Support: v.Support}
	return nil
}
