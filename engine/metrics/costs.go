package metrics

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// Costs is a cost matrix: Cost[i][j] is what predicting class j costs
// when the row is of class i, for the classes of the data in their order
// (codes 0..k-1).
type Costs struct {
	Classes []string    `json:"classes"`
	Cost    [][]float64 `json:"cost"` // [actual][predicted]
	// Source is the file the matrix was read from, as a person named it
	// (set by whoever opened it); "" unknown.
	Source string `json:"source,omitempty"`
}

// ReadCosts reads a cost matrix as CSV: a header `actual,<class>,...`
// naming each class of classes once (the predicted class of its column),
// then a row `<actual class>,<cost>,...` for each class once, in any
// order; every cost finite and at least 0. The matrix is put in the order
// of classes. An error names the culprit (a class that is not one of
// classes, a class missing, a cost with its row and column) in one line,
// for the caller to prefix with the file's name.
func ReadCosts(r io.Reader, classes []string) (*Costs, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	recs, err := cr.ReadAll()
	if err != nil {
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("line %d: %v", pe.Line, pe.Err)
		}
		return nil, err
	}
	valid := "valid: " + strings.Join(classes, ", ")
	if len(recs) == 0 {
		return nil, fmt.Errorf("empty: a header actual,%s and a row of costs per class are needed", strings.Join(classes, ","))
	}
	head := recs[0]
	for i := range head {
		head[i] = strings.TrimSpace(head[i])
	}
	if len(head) == 0 || !strings.EqualFold(head[0], "actual") {
		return nil, fmt.Errorf("the header must start with actual, then the classes (actual,%s); it starts with %q", strings.Join(classes, ","), head[0])
	}
	// col[j] is the class code of column j+1.
	col := make([]int, len(head)-1)
	seen := make([]bool, len(classes))
	for j, name := range head[1:] {
		c := slices.Index(classes, name)
		switch {
		case c < 0:
			return nil, fmt.Errorf("column %q is not a class of the data (%s)", name, valid)
		case seen[c]:
			return nil, fmt.Errorf("column %q is named twice", name)
		}
		seen[c], col[j] = true, c
	}
	if c := slices.Index(seen, false); c >= 0 {
		return nil, fmt.Errorf("class %q has no column (the header names each class once)", classes[c])
	}
	k := len(classes)
	cost := make([][]float64, k)
	for line, rec := range recs[1:] {
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue // a blank line
		}
		name := strings.TrimSpace(rec[0])
		a := slices.Index(classes, name)
		switch {
		case a < 0:
			return nil, fmt.Errorf("row %q (line %d) is not a class of the data (%s)", name, line+2, valid)
		case cost[a] != nil:
			return nil, fmt.Errorf("row %q (line %d) is given twice", name, line+2)
		}
		if len(rec)-1 < len(col) {
			return nil, fmt.Errorf("row %q, column %q: the cost is missing", name, head[len(rec)])
		}
		if len(rec)-1 > len(col) {
			return nil, fmt.Errorf("row %q has %d costs for %d classes", name, len(rec)-1, len(col))
		}
		cost[a] = make([]float64, k)
		for j, text := range rec[1:] {
			text = strings.TrimSpace(text)
			x, err := strconv.ParseFloat(text, 64)
			switch {
			case text == "":
				return nil, fmt.Errorf("row %q, column %q: the cost is missing", name, head[j+1])
			case err != nil || math.IsNaN(x) || math.IsInf(x, 0):
				return nil, fmt.Errorf("row %q, column %q: %q is not a finite number", name, head[j+1], text)
			case x < 0:
				return nil, fmt.Errorf("row %q, column %q: the cost %s is negative (costs are at least 0)", name, head[j+1], text)
			}
			cost[a][col[j]] = x
		}
	}
	for c, row := range cost {
		if row == nil {
			return nil, fmt.Errorf("class %q has no row (a row per actual class is needed)", classes[c])
		}
	}
	return &Costs{Classes: slices.Clone(classes), Cost: cost}, nil
}

// Check says whether c is a cost matrix for classes, in their order.
func (c *Costs) Check(classes []string) error {
	if !slices.Equal(c.Classes, classes) {
		return fmt.Errorf("the cost matrix is for the classes %s, not %s", strings.Join(c.Classes, ", "), strings.Join(classes, ", "))
	}
	if len(c.Cost) != len(classes) {
		return fmt.Errorf("the cost matrix has %d rows for %d classes", len(c.Cost), len(classes))
	}
	for i, row := range c.Cost {
		if len(row) != len(classes) {
			return fmt.Errorf("the cost matrix's row %q has %d costs for %d classes", classes[i], len(row), len(classes))
		}
		for _, x := range row {
			if !(x >= 0) || math.IsInf(x, 0) {
				return fmt.Errorf("the cost matrix's row %q holds %v (costs are finite and at least 0)", classes[i], x)
			}
		}
	}
	return nil
}

// Mean is the mean cost of the predictions pred of the rows of classes
// actual (codes); NaN without rows.
func (c *Costs) Mean(actual, pred []float64) float64 {
	if len(actual) == 0 {
		return math.NaN()
	}
	var sum float64
	for i, a := range actual {
		sum += c.Cost[int(a)][int(pred[i])]
	}
	return sum / float64(len(actual))
}

// AtOperating is the mean cost of an operating point of two classes (the
// positive class's confusion at a threshold, OperatingPoints), positive
// the code of the positive class; NaN without rows.
func (c *Costs) AtOperating(o Operating, positive int) float64 {
	neg := 1 - positive
	n := o.TP + o.FP + o.FN + o.TN
	if n == 0 {
		return math.NaN()
	}
	sum := float64(o.TP)*c.Cost[positive][positive] + float64(o.FN)*c.Cost[positive][neg] +
		float64(o.FP)*c.Cost[neg][positive] + float64(o.TN)*c.Cost[neg][neg]
	return sum / float64(n)
}

// BayesThreshold is the threshold on the positive class's probability
// that minimises the expected cost when the probabilities are right:
// predicting positive costs (1-p)·c_FP + p·c_TP, negative (1-p)·c_TN +
// p·c_FN, so positive iff p ≥ t = (c_FP − c_TN) / ((c_FP − c_TN) + (c_FN
// − c_TP)). ok is false when the denominator is not above 0 (no threshold
// orders the decision so: a matrix that does not charge mistakes more
// than right answers).
func (c *Costs) BayesThreshold(positive int) (t float64, ok bool) {
	neg := 1 - positive
	a := c.Cost[neg][positive] - c.Cost[neg][neg]           // c_FP − c_TN
	b := c.Cost[positive][neg] - c.Cost[positive][positive] // c_FN − c_TP
	if a+b <= 0 {
		return 0, false
	}
	return a / (a + b), true
}

// BayesDecision is, for each row of class probabilities P (a column per
// class), the class j minimising the expected cost Σ_i P_i·Cost[i][j];
// ties to the lower code.
func (c *Costs) BayesDecision(P *mat.Dense) []float64 {
	n, k := P.Dims()
	out := make([]float64, n)
	for r := range n {
		p := P.RawRowView(r)
		best, bestCost := 0, math.Inf(1)
		for j := range k {
			var e float64
			for i := range k {
				e += p[i] * c.Cost[i][j]
			}
			if e < bestCost {
				best, bestCost = j, e
			}
		}
		out[r] = float64(best)
	}
	return out
}

// Threshold applies a threshold to the positive class's scores s of two
// classes: positive iff s ≥ t.
func Threshold(s []float64, t float64, positive int) []float64 {
	out := make([]float64, len(s))
	for i, x := range s {
		if x >= t {
			out[i] = float64(positive)
		} else {
			out[i] = float64(1 - positive)
		}
	}
	return out
}

// PositiveScores are the positive class's scores of two classes: its
// column of probabilities, or the single column of decision values (class
// 1's minus class 0's) negated for positive 0, as the curves take them.
func PositiveScores(scores *mat.Dense, positive int) []float64 {
	n, cols := scores.Dims()
	out := make([]float64, n)
	for i := range n {
		if cols == 1 {
			out[i] = float64(2*positive-1) * scores.At(i, 0)
		} else {
			out[i] = scores.At(i, positive)
		}
	}
	return out
}

// MinCostThreshold is the threshold on the positive class's scores s of
// rows of classes actual that minimises their mean cost (positive iff s ≥
// t). Each gap between two adjacent distinct scores splits the rows
// alike: its middle stands for it (the lowest score for the gap below
// it, and for the gap above the highest, own if it is there, else just
// above that score). Of gaps of equal cost, the one nearest own (the
// model's own threshold: 0.5 for probabilities, 0 for decision values) is
// taken, and own itself when it lies in the gap taken. Without rows it is
// own.
func (c *Costs) MinCostThreshold(actual, s []float64, positive int, own float64) float64 {
	n := len(s)
	if n == 0 {
		return own
	}
	neg := 1 - positive
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return s[idx[a]] > s[idx[b]] })
	// Start with nothing positive, then lower the threshold score by score.
	var total float64
	for _, a := range actual {
		total += c.Cost[int(a)][neg]
	}
	hi := s[idx[0]]
	best := math.Nextafter(hi, math.Inf(1))
	if own > hi {
		best = own
	}
	bestCost, bestLo := total, hi // the interval (bestLo, +inf) splits the rows alike
	bestHi := math.Inf(1)
	for r := 0; r < n; {
		t := s[idx[r]]
		for r < n && s[idx[r]] == t {
			a := int(actual[idx[r]])
			total += c.Cost[a][positive] - c.Cost[a][neg]
			r++
		}
		lo := math.Inf(-1)
		if r < n {
			lo = s[idx[r]]
		}
		// Every threshold in (lo, t] splits the rows as t does: the
		// middle of the gap, which new rows are least likely to fall on
		// the wrong side of.
		cand := t
		if !math.IsInf(lo, -1) {
			cand = lo + (t-lo)/2
		}
		if own <= t && own > lo {
			cand = own
		}
		switch {
		case total < bestCost-1e-12*math.Abs(bestCost):
			best, bestCost, bestLo, bestHi = cand, total, lo, t
		case total <= bestCost+1e-12*math.Abs(bestCost) && math.Abs(cand-own) < math.Abs(best-own):
			best, bestCost, bestLo, bestHi = cand, total, lo, t
		}
	}
	if own > bestLo && own <= bestHi {
		return own
	}
	return best
}
