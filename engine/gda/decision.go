package gda

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/engine"
)

// Decision rules shared by the three models (Shewchuk, Concise Machine Learning, lecture 6, "Decision
// theory aka risk minimization").
const (
	// DecisionMAP predicts the class with the largest posterior: the Bayes
	// rule under the 0-1 loss.
	DecisionMAP = "map"
	// DecisionRisk predicts the class of minimum expected loss under a loss
	// matrix: argmin_j Σ_i L(i,j) P(i|x).
	DecisionRisk = "risk"
)

// ParseLoss reads a loss matrix written row by row: rows are separated by
// ';' (or new lines), entries by ',' (or spaces). Row i is the true class i,
// column j the predicted class j, so L(i,j) is the loss of predicting j when
// the truth is i; e.g. "0,1;5,0" makes a false negative of class 1 five times
// as bad as a false positive (the cancer-screening example of
// Shewchuk, Concise Machine Learning, lecture 6). It
// returns nil for an empty string, which means the 0-1 loss. Entries must be
// finite and non-negative, the matrix square and not all zero; its size is
// checked against the classes in Fit.
func ParseLoss(s string) (*mat.Dense, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, nil
	}
	s = strings.TrimRight(strings.ReplaceAll(s, "\n", ";"), "; \t\r")
	rowText := strings.Split(s, ";")
	var rows [][]float64
	for i, rt := range rowText {
		if strings.TrimSpace(rt) == "" {
			return nil, fmt.Errorf("loss matrix row %d is empty", i+1)
		}
		fields := strings.FieldsFunc(rt, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\r' })
		row := make([]float64, len(fields))
		for j, f := range fields {
			v, err := strconv.ParseFloat(f, 64)
			if err != nil {
				return nil, fmt.Errorf("loss matrix row %d, entry %d: %q is not a number", i+1, j+1, f)
			}
			if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
				return nil, fmt.Errorf("loss matrix row %d, entry %d: %s must be a finite number >= 0", i+1, j+1, f)
			}
			row[j] = v
		}
		if len(rows) > 0 && len(row) != len(rows[0]) {
			return nil, fmt.Errorf("loss matrix row %d has %d entries, row 1 has %d", i+1, len(row), len(rows[0]))
		}
		rows = append(rows, row)
	}
	k := len(rows)
	if len(rows[0]) != k {
		return nil, fmt.Errorf("loss matrix is %dx%d; it must be square, one row and one column per class (rows: true class, columns: predicted class)", k, len(rows[0]))
	}
	if k < 2 {
		return nil, errors.New("loss matrix must be at least 2x2, one row and one column per class")
	}
	L := mat.NewDense(k, k, nil)
	nonzero := false
	for i, row := range rows {
		for j, v := range row {
			L.Set(i, j, v)
			nonzero = nonzero || v != 0
		}
	}
	if !nonzero {
		return nil, errors.New("loss matrix is all zeros: every prediction would be equally good")
	}
	return L, nil
}

// CheckLoss validates the syntax of a loss matrix; it is the Check of the
// models' loss parameter.
func CheckLoss(s string) error {
	_, err := ParseLoss(s)
	return err
}

// ConditionalRisk returns R = P·L (n x k): R(x,j) = Σ_i L(i,j) P(i|x), the
// expected loss of predicting class j for each row of posteriors P.
func ConditionalRisk(post mat.Matrix, loss *mat.Dense) *mat.Dense {
	var R mat.Dense
	R.Mul(post, loss)
	return &R
}

// Decide returns, for each row of posteriors, the class of minimum expected
// loss argmin_j Σ_i L(i,j) P(i|x) (the first on ties); with a nil loss it is
// the class of maximum posterior (the 0-1 loss).
func Decide(post mat.Matrix, loss *mat.Dense) []float64 {
	n, k := post.Dims()
	out := make([]float64, n)
	if loss == nil {
		for i := range out {
			best := 0
			for c := 1; c < k; c++ {
				if post.At(i, c) > post.At(i, best) {
					best = c
				}
			}
			out[i] = float64(best)
		}
		return out
	}
	R := ConditionalRisk(post, loss)
	for i := range out {
		row := R.RawRowView(i)
		best := 0
		for c, v := range row {
			if v < row[best] {
				best = c
			}
		}
		out[i] = float64(best)
	}
	return out
}

// decider is a model's validated decision rule.
type decider struct {
	loss *mat.Dense // nil: MAP
}

// newDecider validates the decision and loss hyperparameters against the
// classes found in the data.
func newDecider(decision, loss string, classes []string) (decider, error) {
	L, err := ParseLoss(loss)
	if err != nil {
		return decider{}, fmt.Errorf("parameter loss: %v", err)
	}
	if decision == DecisionMAP {
		if L != nil {
			return decider{}, errors.New("parameter loss is set but decision is map: set decision=risk to use the loss matrix, or clear loss")
		}
		return decider{}, nil
	}
	k := len(classes)
	if L == nil {
		// The 0-1 loss: minimum risk is maximum posterior.
		return decider{}, nil
	}
	if r, _ := L.Dims(); r != k {
		return decider{}, engine.Limitf("parameter loss: the loss matrix is %dx%d but the data has %d classes (%s): give one row (true class) and one column (predicted class) per class, in that order", r, r, k, strings.Join(classes, ", "))
	}
	return decider{loss: L}, nil
}
