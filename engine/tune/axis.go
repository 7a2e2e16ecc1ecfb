// Package tune searches a model's hyperparameters: a grid or random search
// over one or two parameters, every setting cross-validated on the same
// folds, with the training score beside the validation score (a validation
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
	Text   string // the range as written, e.g. "1..50" or "uniform,distance"
	Values []any  // typed as engine.Values holds them, in grid order

	lo, hi float64 // a numeric range's bounds (list: unused)
	log    bool    // the range is spaced (and drawn) on a log scale
	list   bool    // the values were listed, not a range
}

// Numeric says whether the axis's values are numbers (an x axis), not
// choices, booleans or lists (categories).
func (a Axis) Numeric() bool { return a.Param.Kind == engine.Int || a.Param.Kind == engine.Float }

// Log says whether the axis is spaced on a log scale.
func (a Axis) Log() bool { return a.log }

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
//   - one value: a sweep of one point.
//
// Every value is checked against the spec; an error names the parameter.
func ParseRange(p engine.Param, text string) (Axis, error) {
	a := Axis{Param: p, Text: strings.TrimSpace(text)}
	body := a.Text
	if rest, ok := strings.CutPrefix(body, "log:"); ok {
		a.log, body = true, rest
	}
	lo, hi, isRange := strings.Cut(body, "..")
	if !isRange || !a.Numeric() {
		if a.log {
			return Axis{}, fmt.Errorf("parameter %s: log: goes with a range lo..hi, got %q", p.Name, text)
		}
		return a.listed(body)
	}
	hi, count, counted := strings.Cut(hi, ":")
	first, err := p.ParseValue(lo)
	if err != nil {
		return Axis{}, fmt.Errorf("%v in range %q", err, text)
	}
	last, err := p.ParseValue(hi)
	if err != nil {
		return Axis{}, fmt.Errorf("%v in range %q", err, text)
	}
	a.lo, a.hi = toFloat(first), toFloat(last)
	a.log = a.log || p.Log
	if a.lo > a.hi {
		return Axis{}, fmt.Errorf("parameter %s: range %q runs backwards; write the smaller bound first", p.Name, text)
	}
	if a.log && a.lo <= 0 {
		return Axis{}, fmt.Errorf("parameter %s: a log-spaced range needs bounds above 0, got %q; start it at a small positive value", p.Name, text)
	}
	n := 0
	if counted {
		if n, err = strconv.Atoi(strings.TrimSpace(count)); err != nil || n < 1 || n > maxPoints {
			return Axis{}, fmt.Errorf("parameter %s: %q in range %q is not a number of points from 1 to %d", p.Name, count, text, maxPoints)
		}
	}
	a.Values, err = a.spaced(n)
	return a, err
}

// listed reads comma-separated values (or "|"-separated, for kinds whose
// values hold commas).
func (a Axis) listed(body string) (Axis, error) {
	sep := ","
	if a.Param.Kind == engine.Ints || a.Param.Kind == engine.Text {
		sep = "|"
	}
	a.list = true
	seen := map[string]bool{}
	for _, part := range strings.Split(body, sep) {
		v, err := a.Param.ParseValue(part)
		if err != nil {
			return Axis{}, err
		}
		if key := engine.Format(v); !seen[key] {
			seen[key] = true
			a.Values = append(a.Values, v)
		}
	}
	if len(a.Values) > maxPoints {
		return Axis{}, fmt.Errorf("parameter %s: %d values; sweep at most %d", a.Param.Name, len(a.Values), maxPoints)
	}
	return a, nil
}

// spaced lays n points over [lo, hi] (n 0: every whole number of an int
// range, defaultPoints of a float one). Whole numbers that round alike
// are kept once.
func (a Axis) spaced(n int) ([]any, error) {
	isInt := a.Param.Kind == engine.Int
	if n == 0 && isInt {
		if a.hi-a.lo+1 > maxPoints {
			return nil, fmt.Errorf("parameter %s: range %q has %.0f values; sweep at most %d, e.g. %s:20", a.Param.Name, a.Text, a.hi-a.lo+1, maxPoints, a.Text)
		}
		n = int(a.hi-a.lo) + 1
		if a.log { // every whole number: the spacing is the numbers'
			a.log = false
		}
	}
	if n == 0 {
		n = defaultPoints
	}
	var out []any
	seen := map[float64]bool{}
	for i := range n {
		x := a.at(i, n)
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

// at is point i of n spread over [lo, hi], on the axis's scale.
func (a Axis) at(i, n int) float64 {
	if n == 1 {
		return a.lo
	}
	if i == n-1 {
		return a.hi // exactly, not exp(log(hi)) off by an ulp
	}
	t := float64(i) / float64(n-1)
	if a.log {
		return engine.Tidy(math.Exp(math.Log(a.lo) + t*(math.Log(a.hi)-math.Log(a.lo))))
	}
	return engine.Tidy(a.lo + t*(a.hi-a.lo))
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

// Position is where value i of the axis sits on a chart's x axis: the
// number itself on a numeric axis, else its place in the list.
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
