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

type prJSON struct {
	Class      string      `json:"class"`
	Recall     []JSONFloat `json:"recall"`
	Precision  []JSONFloat `json:"precision"`
	AP         JSONFloat   `json:"average_precision"`
	Prevalence JSONFloat   `json:"prevalence"`
}

// MarshalJSON writes NaN as null.
func (c PR) MarshalJSON() ([]byte, error) {
	return json.Marshal(prJSON{c.Class, jfloats(c.Recall), jfloats(c.Precision), JSONFloat(c.AP), JSONFloat(c.Prevalence)})
}

// UnmarshalJSON reads what MarshalJSON writes (null as NaN).
func (c *PR) UnmarshalJSON(b []byte) error {
	var v prJSON
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*c = PR{Class: v.Class, Recall: numfmt.Unfloats(v.Recall), Precision: numfmt.Unfloats(v.Precision), AP: float64(v.AP), Prevalence: float64(v.Prevalence)}
	return nil
}

type binJSON struct {
	Lo            JSONFloat `json:"lo"`
	Hi            JSONFloat `json:"hi"`
	Count         int       `json:"count"`
	MeanPredicted JSONFloat `json:"mean_predicted"`
	Observed      JSONFloat `json:"observed"`
}

// MarshalJSON writes NaN as null.
func (b Bin) MarshalJSON() ([]byte, error) {
	return json.Marshal(binJSON{JSONFloat(b.Lo), JSONFloat(b.Hi), b.Count, JSONFloat(b.MeanPredicted), JSONFloat(b.Observed)})
}

// UnmarshalJSON reads what MarshalJSON writes (null as NaN).
func (b *Bin) UnmarshalJSON(raw []byte) error {
	var v binJSON
	if err := json.Unmarshal(raw, &v); err != nil {
		return err
	}
	*b = Bin{float64(v.Lo), float64(v.Hi), v.Count, float64(v.MeanPredicted), float64(v.Observed)}
	return nil
}

type liftJSON struct {
	Class   string      `json:"class"`
	Depth   []JSONFloat `json:"depth"`
	Gain    []JSONFloat `json:"gain"`
	Deciles []JSONFloat `json:"decile_gain"`
}

// MarshalJSON writes NaN as null.
func (l Lift) MarshalJSON() ([]byte, error) {
	return json.Marshal(liftJSON{l.Class, jfloats(l.Depth), jfloats(l.Gain), jfloats(l.Deciles)})
}

// UnmarshalJSON reads what MarshalJSON writes (null as NaN).
func (l *Lift) UnmarshalJSON(b []byte) error {
	var v liftJSON
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*l = Lift{Class: v.Class, Depth: numfmt.Unfloats(v.Depth), Gain: numfmt.Unfloats(v.Gain), Deciles: numfmt.Unfloats(v.Deciles)}
	return nil
}
