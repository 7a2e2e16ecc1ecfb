// Package tune searches a model's hyperparameters: a grid or random search
// over one parameter or more (numbers, choices, a text's names and
// numbers), every setting cross-validated on the same folds, with the training score beside the validation score (a validation
// curve); and a learning curve, the same scores against the size of the
// training part. Ranges are read against the registry's specs, so their
// bounds and log scales come from the parameters themselves.
package tune

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/tealab/tealab/engine"
)

// Axis is one swept parameter: its values in grid order, and the range they
// came from, which a random search draws from instead.
type Axis struct {
	Param  engine.Param
	Text   string // the range as written, e.g. "1..50", "uniform,distance" or "scale,auto,0.01..10:7"
	Values []any  // typed as engine.Values holds them, in grid order

	lo, hi float64 // the first range's bounds (a list alone: unused)
	log    bool    // the ranges are spaced (and drawn) on a log scale
	list   bool    // some values were listed, not spaced over a range
	spans  []span  // the ranges lo..hi among the values, in order
}

// span is a range lo..hi of an axis: its values are Values[first:first+n].
type span struct {
	first, n int
	lo, hi   float64
}

// Numeric says whether the axis's values are numbers (an x axis), not
// choices, booleans, lists or a text parameter's values (categories, each
// labelled by its value; a text's numbers are Number).
func (a Axis) Numeric() bool { return a.Param.Kind == engine.Int || a.Param.Kind == engine.Float }

// Log says whether the axis's ranges are spaced on a log scale.
func (a Axis) Log() bool { return a.log }

// Number is value v as a number: an int or float value, or a number that
// a text parameter which takes one (engine.Param.Number) was given; false
// for a name (scale), a choice or a boolean.
func (a Axis) Number(v any) (float64, bool) {
	switch x := v.(type) {
	case int:
		return float64(x), true
	case float64:
		return x, true
	case string:
		if !a.Param.Number {
			return 0, false
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		return f, err == nil
	}
	return 0, false
}

// defaultPoints is how many values a float range without ":N" takes.
const defaultPoints = 10

// maxPoints bounds one axis, so that a typo (1..1e9) is not a billion fits.
const maxPoints = 1000

// ParseAxis reads "name=range" for a parameter of spec; see ParseRange.
func ParseAxis(spec *engine.Spec, setting string) (Axis, error) {
	name, text, ok := strings.Cut(setting, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return Axis{}, fmt.Errorf("sweep wants name=range (e.g. k=1..50), got %q", setting)
	}
	p, ok := spec.Param(name)
	if !ok {
		return Axis{}, fmt.Errorf("model %s has no parameter %q (valid: %s)", spec.Name, name, strings.Join(spec.ParamNames(), ", "))
	}
	return ParseRange(p, text)
}

// ParseRange reads the values of parameter p to sweep:
//
//   - "1..50": every whole number from 1 to 50 (an int parameter);
//   - "1..50:10", "1e-3..1e3:7": that many points from lo to hi, log-spaced
//     when the parameter is explored on a log scale or the range starts
//     with "log:", else evenly (a float range without ":N" takes 10);
//   - "a,b,c": those values (a list parameter's or a text's values are
//     separated by "|": "64,32|128");
//   - names and ranges together, for a text parameter that also takes a
//     number (engine.Param.Number): "scale,auto,0.01..10:7"; and lists and
//     ranges of numbers together: "1,2,5..50:10";
//   - one value: a sweep of one point.
//
// Every value is checked against the spec (a text's by its own Check); an
// error names the parameter and the value it refuses.
func ParseRange(p engine.Param, text string) (Axis, error) {
	a := Axis{Param: p, Text: strings.TrimSpace(text)}
	body := a.Text
	if rest, ok := strings.CutPrefix(body, "log:"); ok {
		a.log, body = true, rest
	}
	forced := a.log
	a.log = a.log || p.Log
	sep := ","
	if (p.Kind == engine.Ints || p.Kind == engine.Text) && !p.Number {
		sep = "|"
	}
	ranged := a.Numeric() || p.Number
	seen := map[string]bool{}
	add := func(v any) {
		if key := engine.Format(v); !seen[key] {
			seen[key] = true
			a.Values = append(a.Values, v)
		}
	}
	for _, part := range strings.Split(body, sep) {
		lo, hi, isRange := strings.Cut(part, "..")
		if !isRange || !ranged {
			v, err := p.ParseValue(part)
			if err != nil {
				return Axis{}, err
			}
			a.list = true
			add(v)
			continue
		}
		sp, vals, err := a.spanOf(lo, hi, text)
		if err != nil {
			return Axis{}, err
		}
		if len(a.spans) == 0 {
			a.lo, a.hi = sp.lo, sp.hi
		}
		sp.first = len(a.Values)
		for _, v := range vals {
			add(v)
		}
		sp.n = len(a.Values) - sp.first
		a.spans = append(a.spans, sp)
		if len(a.Values) > maxPoints {
			break
		}
	}
	if forced && len(a.spans) == 0 {
		return Axis{}, fmt.Errorf("parameter %s: log: goes with a range lo..hi, got %q", p.Name, text)
	}
	if len(a.spans) == 0 {
		a.log = false
	}
	if len(a.Values) > maxPoints {
		return Axis{}, fmt.Errorf("parameter %s: %d values; sweep at most %d", p.Name, len(a.Values), maxPoints)
	}
	return a, nil
}

// spanOf reads one range lo..hi[:N] of the axis (text is the whole range,
// for errors) and lays out its values.
func (a Axis) spanOf(lo, hi, text string) (span, []any, error) {
	p := a.Param
	hi, count, counted := strings.Cut(hi, ":")
	var sp span
	for i, bound := range []string{lo, hi} {
		v, err := p.ParseValue(bound)
		if err != nil {
			return sp, nil, fmt.Errorf("%v in range %q", err, text)
		}
		x, ok := a.Number(v)
		if !ok {
			return sp, nil, fmt.Errorf("parameter %s: %q in range %q is not a number; a range lo..hi runs between numbers", p.Name, strings.TrimSpace(bound), text)
		}
		if i == 0 {
			sp.lo = x
		} else {
			sp.hi = x
		}
	}
	if sp.lo > sp.hi {
		return sp, nil, fmt.Errorf("parameter %s: range %q runs backwards; write the smaller bound first", p.Name, text)
	}
	if a.log && sp.lo <= 0 {
		return sp, nil, fmt.Errorf("parameter %s: a log-spaced range needs bounds above 0, got %q; start it at a small positive value", p.Name, text)
	}
	n := 0
	if counted {
		var err error
		if n, err = strconv.Atoi(strings.TrimSpace(count)); err != nil || n < 1 || n > maxPoints {
			return sp, nil, fmt.Errorf("parameter %s: %q in range %q is not a number of points from 1 to %d", p.Name, count, text, maxPoints)
		}
	}
	vals, err := a.spaced(sp, n)
	if err != nil {
		return sp, nil, err
	}
	if p.Kind == engine.Text { // a text's numbers, each checked by the parameter itself
		for i, v := range vals {
			s := engine.Format(v)
			if _, err := p.ParseValue(s); err != nil {
				return sp, nil, fmt.Errorf("%v in range %q", err, text)
			}
			vals[i] = s
		}
	}
	return sp, vals, nil
}

// spaced lays n points over [sp.lo, sp.hi] (n 0: every whole number of an
// int range, defaultPoints of a float one). Whole numbers that round alike
// are kept once.
func (a Axis) spaced(sp span, n int) ([]any, error) {
	isInt := a.Param.Kind == engine.Int
	if n == 0 && isInt {
		if sp.hi-sp.lo+1 > maxPoints {
			return nil, fmt.Errorf("parameter %s: range %q has %.0f values; sweep at most %d, e.g. %s:20", a.Param.Name, a.Text, sp.hi-sp.lo+1, maxPoints, a.Text)
		}
		n = int(sp.hi-sp.lo) + 1
		a.log = false // every whole number: the spacing is the numbers'
	}
	if n == 0 {
		n = defaultPoints
	}
	var out []any
	seen := map[float64]bool{}
	for i := range n {
		x := a.at(sp, i, n)
		if isInt {
			x = math.Round(x)
			if seen[x] {
				continue
			}
			seen[x] = true
			out = append(out, int(x))
			continue
		}
		out = append(out, x)
	}
	return out, nil
}

// at is point i of n spread over [sp.lo, sp.hi], on the axis's scale.
func (a Axis) at(sp span, i, n int) float64 {
	if n == 1 {
		return sp.lo
	}
	if i == n-1 {
		return sp.hi // exactly, not exp(log(hi)) off by an ulp
	}
	t := float64(i) / float64(n-1)
	if a.log {
		return engine.Tidy(math.Exp(math.Log(sp.lo) + t*(math.Log(sp.hi)-math.Log(sp.lo))))
	}
	return engine.Tidy(sp.lo + t*(sp.hi-sp.lo))
}

func toFloat(v any) float64 {
	switch x := v.(type) {
	case int:
		return float64(x)
	case float64:
		return x
	}
	return math.NaN()
}

// Position is where value v sits on a chart's x axis: the number itself on
// a numeric axis, else its place in the list (a number drawn from a range
// of a text's numbers, between the places of its neighbours).
func (a Axis) Position(v any) float64 {
	if a.Numeric() {
		return toFloat(v)
	}
	key := engine.Format(v)
	for i, w := range a.Values {
		if engine.Format(w) == key {
			return float64(i)
		}
	}
	if x, ok := a.Number(v); ok {
		for _, sp := range a.spans {
			if x < sp.lo || x > sp.hi || sp.n < 2 {
				continue
			}
			t := (x - sp.lo) / (sp.hi - sp.lo)
			if a.log {
				t = math.Log(x/sp.lo) / math.Log(sp.hi/sp.lo)
			}
			return float64(sp.first) + t*float64(sp.n-1)
		}
	}
	return math.NaN()
}

// DefaultRange is a range to offer for sweeping p, from its spec: every
// whole number of a small int range, ten points over a larger one (log
// when the parameter is explored so), the choices of a choice, both
// booleans; around the default where a bound is open.
func DefaultRange(p engine.Param) string {
	switch p.Kind {
	case engine.Choice:
		return strings.Join(p.Choices, ",")
	case engine.Bool:
		return "false,true"
	case engine.Int, engine.Float:
	default:
		return engine.Format(p.Default)
	}
	def := toFloat(p.Default)
	lo, hi := p.Min, p.Max
	if p.Log {
		if math.IsNaN(lo) || lo <= 0 || lo < def/1000 {
			lo = def / 100
		}
		if math.IsNaN(hi) || hi > def*1000 {
			hi = def * 100
		}
		if def <= 0 {
			lo, hi = 1e-3, 1e3
		}
	} else {
		if math.IsNaN(lo) {
			lo = math.Min(0, def-10)
		}
		wide := hi-lo > 1000*math.Max(math.Abs(def), 1) // a penalty of 0..1e6
		if math.IsNaN(hi) || (p.Kind == engine.Int && hi-lo > 50) || (p.Kind == engine.Float && wide) {
			hi = math.Max(def*6, lo+20)
			if p.Kind == engine.Float {
				hi = math.Max(def*6, lo+1)
			}
			if !math.IsNaN(p.Max) {
				hi = math.Min(hi, p.Max)
			}
		}
	}
	if p.Kind == engine.Int {
		lo, hi = math.Ceil(lo), math.Floor(hi)
		if hi-lo <= 50 && !p.Log {
			return fmt.Sprintf("%.0f..%.0f", lo, hi)
		}
		return fmt.Sprintf("%.0f..%.0f:10", lo, hi)
	}
	return engine.Format(engine.Tidy(lo)) + ".." + engine.Format(engine.Tidy(hi)) + ":10"
}
