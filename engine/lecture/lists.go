package lecture

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/numfmt"
)

// A list knob takes several numbers, written as a comma list (0.105,0.055),
// a range of whole numbers (0..9) or n points from a to b (1e-3..1e3:13,
// spaced on a log scale when the knob is). Lists are Text knobs whose
// Check reads them, so forms and flags handle them as any text.

// maxList bounds how many numbers a list may hold: a typo such as
// 0..1e9 is refused before anything is computed.
const maxList = 1000

// ListKnob is a knob holding a list of numbers within [min, max]; whole
// says they must be whole numbers, log that a..b:n is spaced on a log scale.
func ListKnob(name, def, help string, min, max float64, whole, log bool) engine.Param {
	p := engine.Param{Name: name, Kind: engine.Text, Default: def, Min: min, Max: max, Log: log, Help: help}
	p.Check = func(text string) error {
		_, err := readList(text, min, max, whole, log)
		return err
	}
	p.Detail = fmt.Sprintf("a comma list (1,2,5), a range of whole numbers (1..9) or n points from a to b (a..b:n); each in [%s, %s]", numfmt.Param(min), numfmt.Param(max))
	if whole {
		p.Detail += ", whole numbers"
	}
	return p
}

// List reads knob name of v as the list of numbers it holds; the knob
// must be a ListKnob whose value Parse checked.
func List(v engine.Values, p engine.Param) []float64 {
	xs, _ := readList(v.String(p.Name), p.Min, p.Max, false, p.Log)
	return xs
}

// Ints is List for whole numbers.
func Ints(v engine.Values, p engine.Param) []int {
	xs := List(v, p)
	out := make([]int, len(xs))
	for i, x := range xs {
		out[i] = int(math.Round(x))
	}
	return out
}

func readList(text string, min, max float64, whole, log bool) ([]float64, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil, fmt.Errorf("empty: give numbers as 1,2,5, 1..9 or a..b:n")
	}
	var out []float64
	for _, part := range strings.Split(text, ",") {
		xs, err := readItem(strings.TrimSpace(part), log)
		if err != nil {
			return nil, err
		}
		out = append(out, xs...)
		if len(out) > maxList {
			return nil, fmt.Errorf("%q holds more than %d numbers", text, maxList)
		}
	}
	for _, x := range out {
		if x < min || x > max {
			return nil, fmt.Errorf("%s is out of range [%s, %s]", numfmt.Param(x), numfmt.Param(min), numfmt.Param(max))
		}
		if whole && x != math.Trunc(x) {
			return nil, fmt.Errorf("%s is not a whole number", numfmt.Param(x))
		}
	}
	return out, nil
}

// readItem reads one number, a..b (whole steps) or a..b:n.
func readItem(s string, log bool) ([]float64, error) {
	lo, hi, isRange := strings.Cut(s, "..")
	if !isRange {
		x, err := number(s)
		if err != nil {
			return nil, err
		}
		return []float64{x}, nil
	}
	hi, count, counted := strings.Cut(hi, ":")
	a, err := number(lo)
	if err != nil {
		return nil, err
	}
	b, err := number(hi)
	if err != nil {
		return nil, err
	}
	if b < a {
		return nil, fmt.Errorf("%q runs backwards: write the smaller end first", s)
	}
	if !counted {
		if a != math.Trunc(a) || b != math.Trunc(b) {
			return nil, fmt.Errorf("%q: a..b steps by 1 between whole numbers; write a..b:n for n points", s)
		}
		if b-a >= maxList {
			return nil, fmt.Errorf("%q holds more than %d numbers", s, maxList)
		}
		var out []float64
		for x := a; x <= b; x++ {
			out = append(out, x)
		}
		return out, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(count))
	if err != nil || n < 2 || n > maxList {
		return nil, fmt.Errorf("%q: the count after : must be a whole number in [2, %d]", s, maxList)
	}
	if log && a <= 0 {
		return nil, fmt.Errorf("%q: a log-spaced range starts above 0", s)
	}
	out := make([]float64, n)
	for i := range out {
		t := float64(i) / float64(n-1)
		if log {
			out[i] = math.Exp(math.Log(a) + t*(math.Log(b)-math.Log(a)))
		} else {
			out[i] = a + t*(b-a)
		}
	}
	out[0], out[n-1] = a, b
	return out, nil
}

func number(s string) (float64, error) {
	x, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	return x, nil
}
