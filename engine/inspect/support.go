package inspect

import (
	"math"
	"sort"
	"strings"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
)

// ClassCount is how many support vectors a class has.
type ClassCount struct {
	Class string
	N     int
}

// SupportCounts are a kernel machine's support vectors counted by class,
// in the order of classes (then any class not among them; none for
// regression), and how many are at the bound C (margin errors).
func SupportCounts(sv *engine.SupportVectors, classes []string) (perClass []ClassCount, atBound int) {
	at := map[string]int{}
	for _, c := range classes {
		at[c] = len(perClass)
		perClass = append(perClass, ClassCount{Class: c})
	}
	for _, c := range sv.Class {
		i, ok := at[c]
		if !ok {
			i = len(perClass)
			at[c] = i
			perClass = append(perClass, ClassCount{Class: c})
		}
		perClass[i].N++
	}
	if len(sv.Class) == 0 {
		perClass = nil
	}
	for _, b := range sv.AtBound {
		if b {
			atBound++
		}
	}
	return perClass, atBound
}

// SupportWeight is the largest |y·α| of vector i: how much it pulls on the
// decision function (in any of its one-against-one pairs).
func SupportWeight(sv *engine.SupportVectors, i int) float64 {
	w := 0.0
	if i < len(sv.Coef) {
		for _, c := range sv.Coef[i] {
			w = math.Max(w, math.Abs(c))
		}
	}
	return w
}

// ByWeight are the indices of the support vectors, the heaviest
// (SupportWeight) first; ties keep the vectors' order.
func ByWeight(sv *engine.SupportVectors) []int {
	order := make([]int, len(sv.Rows))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return SupportWeight(sv, order[a]) > SupportWeight(sv, order[b]) })
	return order
}

// DataRow is the row of the data (1-based) that the shown model's training
// row i (0-based, as a support vector's index) was, and whether that is
// known: a model fitted on all the rows in order saw them as they are; one
// fitted on a part keeps which (eval.Result.FittedRows) until the result
// is written to a file. Unknown, DataRow is i+1, the training row's place.
func DataRow(res *eval.Result, i int) (int, bool) {
	switch {
	case res == nil:
		return i + 1, false
	case res.FittedRows != nil:
		if i >= 0 && i < len(res.FittedRows) {
			return res.FittedRows[i] + 1, true
		}
		return i + 1, false
	case strings.HasPrefix(res.FittedOn, "all "):
		return i + 1, true
	}
	return i + 1, false
}
