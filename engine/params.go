package engine

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/tealab/tealab/numfmt"
)

// ParamKind is the type of a hyperparameter.
type ParamKind int

const (
	Int ParamKind = iota
	Float
	Bool
	Choice
	// Text is free text checked by Param.Check, e.g. a loss matrix "0,1;5,0".
	Text
	// Ints is a list of whole numbers, each in [Min, Max], written
	// "100,50" (a network's hidden-layer widths): []int in Values.
	Ints
)

func (k ParamKind) String() string {
	return [...]string{"int", "float", "bool", "choice", "text", "ints"}[k]
}

// Param describes one hyperparameter. Ranges are inclusive; a NaN bound is open.
type Param struct {
	Name    string
	Kind    ParamKind
	Default any      // int, float64, bool, string or []int, matching Kind
	Min     float64  // Int, Float and each of Ints
	Max     float64  // Int, Float and each of Ints
	Log     bool     // best explored on a log scale (learning rates, penalties; a Number's numbers)
	Choices []string // Choice
	// Number, for a Text parameter, says that a value may be a number
	// besides its named values (gamma: scale, auto or a number above 0),
	// which Check accepts: a sweep then reads ranges lo..hi of it beside
	// the names ("scale,auto,0.01..10:7"), spaced on a log scale when Log
	// is set. Such a parameter's values hold no comma.
	Number bool
	// Simpler says in which direction of an Int or a Float the model is
	// simpler (smoother, more regularised): SimplerLower (a tree's
	// max_depth, an SVM's C) or SimplerHigher (k of k-NN, a penalty
	// alpha); "" where it is not clear. The one-standard-error rule of a
	// sweep reads it.
	Simpler string
	// ZeroIsNoLimit says that 0 means no limit (a tree's max_depth): for
	// Simpler, the least simple of values.
	ZeroIsNoLimit bool
	// Help is one line: what the parameter is, as a form or a table of
	// parameters shows it beside the value.
	Help string
	// Detail is the rest, when one line is not enough: what each choice
	// does, how a value is read, a caveat, a source. It is shown where a
	// parameter is explained in full (`tealab models NAME`, --json), after
	// Help; "" when Help says it all.
	Detail string
	// Check validates a Text value; nil accepts anything.
	Check func(string) error
	// When, if set, is the only case in which the parameter has an
	// effect (lr only for the gradient solvers): the lab dims it
	// otherwise and says why. Its value is kept either way.
	When *Applies
}

// The directions of Param.Simpler.
const (
	SimplerLower  = "lower"
	SimplerHigher = "higher"
)

// Applies is when a parameter has an effect: parameter Param has one of
// the values In (a Choice or a Bool, spelled as Format spells it), or, with
// In empty, Param is an Int or a Float above Above (validation_fraction
// only when patience > 0).
type Applies struct {
	Param string
	In    []string
	Above float64
}

// String says the condition: "solver is gd or sgd", "patience > 0".
func (a Applies) String() string {
	if len(a.In) == 0 {
		return a.Param + " > " + numfmt.Param(a.Above)
	}
	list := a.In[len(a.In)-1]
	if len(a.In) > 1 {
		list = strings.Join(a.In[:len(a.In)-1], ", ") + " or " + list
	}
	return a.Param + " is " + list
}

// holds reports whether values v meet the condition; a value missing or of
// another type does not.
func (a Applies) holds(v Values) bool {
	if len(a.In) == 0 {
		switch x := v[a.Param].(type) {
		case int:
			return float64(x) > a.Above
		case float64:
			return x > a.Above
		}
		return false
	}
	got := Format(v[a.Param])
	for _, want := range a.In {
		if got == want {
			return true
		}
	}
	return false
}

// AppliesTo reports whether p has an effect with values v and, when it does
// not, says why ("only when solver is gd or sgd", "only when patience > 0").
func (p Param) AppliesTo(v Values) (bool, string) {
	if p.When == nil || p.When.holds(v) {
		return true, ""
	}
	return false, "only when " + p.When.String()
}

// Step moves a numeric value one step up (dir > 0) or down within the
// parameter's range: by 1 for an integer; along 1, 3, 10, 30... for a
// parameter explored on a log scale; else by a round twentieth of the
// range. Other kinds come back unchanged.
func (p Param) Step(v float64, dir int) float64 {
	if p.Kind != Int && p.Kind != Float {
		return v
	}
	var next float64
	switch {
	case p.Log && v > 0:
		next = logStep(v, dir)
	case p.Kind == Int:
		next = math.Round(v) + float64(sign(dir))
	default:
		step := 0.05
		if !math.IsNaN(p.Min) && !math.IsNaN(p.Max) && p.Max > p.Min {
			step = roundStep((p.Max - p.Min) / 20)
		}
		next = Tidy((math.Round(v/step) + float64(sign(dir))) * step) // 0.15, not 0.15000000000000002
	}
	if p.Kind == Int {
		next = math.Round(next)
		if next == math.Round(v) && p.Log { // 1 → 3 → 10 for integers too
			next += float64(sign(dir))
		}
	}
	if !math.IsNaN(p.Min) {
		next = math.Max(next, p.Min)
	}
	if !math.IsNaN(p.Max) {
		next = math.Min(next, p.Max)
	}
	return next
}

func sign(d int) int {
	if d < 0 {
		return -1
	}
	return 1
}

// logStep is the next value of the 1-3-10 sequence above (or below) v.
func logStep(v float64, dir int) float64 {
	e := math.Floor(math.Log10(v))
	var grid []float64
	for k := e - 1; k <= e+1; k++ {
		d := math.Pow(10, k)
		grid = append(grid, d, 3*d)
	}
	grid = append(grid, math.Pow(10, e+2))
	if dir > 0 {
		for _, g := range grid {
			if g > v*(1+1e-9) {
				return Tidy(g)
			}
		}
	}
	for i := len(grid) - 1; i >= 0; i-- {
		if grid[i] < v*(1-1e-9) {
			return Tidy(grid[i])
		}
	}
	return v
}

// Tidy drops the float noise of a product (3e-05 from 3*1e-5 =
// 3.0000000000000004e-05) by keeping 12 significant digits.
func Tidy(x float64) float64 {
	y, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 12, 64), 64)
	return y
}

// roundStep is the 1, 2 or 5 times a power of ten nearest raw (on a log
// scale): 0.049 steps by 0.05.
func roundStep(raw float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	best := p
	for _, m := range []float64{1, 2, 5, 10} {
		if math.Abs(math.Log(m*p/raw)) < math.Abs(math.Log(best/raw)) {
			best = m * p
		}
	}
	return Tidy(best)
}

// Values holds a model's hyperparameters, keyed by name: int, float64, bool,
// string or []int values as the spec's kinds say. Spec.Defaults and Spec.Parse make them.
type Values map[string]any

// Float returns a Float (or Int) parameter.
func (v Values) Float(name string) float64 {
	switch x := v[name].(type) {
	case float64:
		return x
	case int:
		return float64(x)
	}
	panic("engine: no float parameter " + name) // programmer error: name not in the spec
}

// Int returns an Int parameter.
func (v Values) Int(name string) int {
	if x, ok := v[name].(int); ok {
		return x
	}
	panic("engine: no int parameter " + name)
}

// Bool returns a Bool parameter.
func (v Values) Bool(name string) bool {
	if x, ok := v[name].(bool); ok {
		return x
	}
	panic("engine: no bool parameter " + name)
}

// Ints returns an Ints parameter (the caller must not change it).
func (v Values) Ints(name string) []int {
	if x, ok := v[name].([]int); ok {
		return x
	}
	panic("engine: no ints parameter " + name)
}

// String returns a Choice or Text parameter.
func (v Values) String(name string) string {
	if x, ok := v[name].(string); ok {
		return x
	}
	panic("engine: no choice parameter " + name)
}

// Format renders a value as --param would take it.
func Format(x any) string {
	switch x := x.(type) {
	case float64:
		return numfmt.Param(x) // exact, with a tidy exponent: 1e5 beside 1e6
	case []int:
		parts := make([]string, len(x))
		for i, n := range x {
			parts[i] = strconv.Itoa(n)
		}
		return strings.Join(parts, ",")

	default:
		return fmt.Sprint(x)
	}
}

// Describe is "k=v k=v" in spec order, for titles and run tables: the
// parameters that apply to these values and are not empty.
func (s *Spec) Describe(v Values) string {
	parts := make([]string, 0, len(s.Params))
	for _, p := range s.Params {
		text := Format(v[p.Name])
		// What does not apply, or is empty (no loss matrix), is left out:
		// "lr=0.1" beside a Newton solver would say it was used.
		if ok, _ := p.AppliesTo(v); !ok || text == "" {
			continue
		}
		parts = append(parts, p.Name+"="+text)
	}
	return strings.Join(parts, " ")
}

// ParseValue reads and validates one value of this parameter. The error names
// the parameter and says what is valid.
func (p Param) ParseValue(text string) (any, error) {
	text = strings.TrimSpace(text)
	switch p.Kind {
	case Int:
		return p.parseInt(text)
	case Ints:
		if text == "" {
			return nil, fmt.Errorf("parameter %s: empty (%s)", p.Name, p.Range())
		}
		var out []int
		for _, part := range strings.Split(text, ",") {
			n, err := p.parseInt(strings.TrimSpace(part))
			if err != nil {
				return nil, err
			}
			out = append(out, n)
		}
		return out, nil
	case Float:
		f, err := strconv.ParseFloat(text, 64)
		if tooBig(err, f) {
			return nil, p.outOfRange(text)
		}
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("parameter %s: %q is not a number (%s)", p.Name, text, p.Range())
		}
		if err := p.checkRange(text, f); err != nil {
			return nil, err
		}
		return f, nil
	case Bool:
		b, err := strconv.ParseBool(text)
		if err != nil {
			return nil, fmt.Errorf("parameter %s: %q is not true or false", p.Name, text)
		}
		return b, nil
	case Text:
		if p.Check != nil {
			if err := p.Check(text); err != nil {
				return nil, fmt.Errorf("parameter %s: %v", p.Name, err)
			}
		}
		return text, nil
	default:
		for _, c := range p.Choices {
			if strings.EqualFold(c, text) {
				return c, nil
			}
		}
		return nil, fmt.Errorf("parameter %s: %q is not one of %s", p.Name, text, strings.Join(p.Choices, ", "))
	}
}

// parseInt reads one whole number within the parameter's range.
func (p Param) parseInt(text string) (int, error) {
	f, err := strconv.ParseFloat(text, 64)
	if tooBig(err, f) && f == math.Trunc(f) {
		return 0, p.outOfRange(text)
	}
	if err != nil || f != math.Trunc(f) {
		return 0, fmt.Errorf("parameter %s: %q is not a whole number (%s)", p.Name, text, p.Range())
	}
	if err := p.checkRange(text, f); err != nil {
		return 0, err
	}
	return int(f), nil
}

// checkRange refuses f outside [Min, Max], quoting text as it was typed
// (1e-400 reads as 0: the message must not say "0").
func (p Param) checkRange(text string, f float64) error {
	if (!math.IsNaN(p.Min) && f < p.Min) || (!math.IsNaN(p.Max) && f > p.Max) ||
		((p.Kind == Int || p.Kind == Ints) && math.Abs(f) > 1<<53) {
		return p.outOfRange(text)
	}
	return nil
}

func (p Param) outOfRange(text string) error {
	return fmt.Errorf("parameter %s: %q is out of range (%s)", p.Name, text, p.Range())
}

// tooBig says whether strconv.ParseFloat gave up on a number too large for
// float64 (a well-formed number: out of range, not "not a number").
func tooBig(err error, f float64) bool {
	return errors.Is(err, strconv.ErrRange) && math.IsInf(f, 0)
}

// Range says what values are valid, e.g. "int in [1, 10000]" or "one of a, b".
func (p Param) Range() string {
	switch p.Kind {
	case Bool:
		return "true or false"
	case Choice:
		return "one of " + strings.Join(p.Choices, ", ")
	case Text:
		return "text"
	}
	lo, hi := "-inf", "+inf"
	if !math.IsNaN(p.Min) {
		lo = numfmt.Bound(p.Min)
	}
	if !math.IsNaN(p.Max) {
		hi = numfmt.Bound(p.Max)
	}
	if p.Kind == Ints {
		return fmt.Sprintf("ints in [%s, %s], comma-separated", lo, hi)
	}
	return fmt.Sprintf("%s in [%s, %s]", p.Kind, lo, hi)
}

// Defaults returns every parameter at its default.
func (s *Spec) Defaults() Values { return DefaultsOf(s.Params) }

// DefaultsOf is every parameter of params at its default.
func DefaultsOf(params []Param) Values {
	v := make(Values, len(params))
	for _, p := range params {
		v[p.Name] = p.Default
	}
	return v
}

// Param finds a parameter by name.
func (s *Spec) Param(name string) (Param, bool) {
	for _, p := range s.Params {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

// ParamNames lists the parameter names, in spec order.
func (s *Spec) ParamNames() []string {
	names := make([]string, len(s.Params))
	for i, p := range s.Params {
		names[i] = p.Name
	}
	return names
}

// Parse starts from the defaults and applies name=value settings, rejecting
// unknown names and invalid values with an error that lists what is valid.
func (s *Spec) Parse(settings map[string]string) (Values, error) {
	return ParseParams(s.Params, settings, func(name string) error {
		valid := "it has no parameters"
		if len(s.Params) > 0 {
			valid = "valid: " + strings.Join(s.ParamNames(), ", ")
		}
		return fmt.Errorf("model %s has no parameter %q (%s)", s.Name, name, valid)
	})
}

// ParseParams starts from params' defaults and applies name=value
// settings in the names' order, each read by its Param; a name that is
// none of params is unknown's error.
func ParseParams(params []Param, settings map[string]string, unknown func(name string) error) (Values, error) {
	v := DefaultsOf(params)
	names := make([]string, 0, len(settings))
	for k := range settings {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, name := range names {
		i := slices.IndexFunc(params, func(p Param) bool { return p.Name == name })
		if i < 0 {
			return nil, unknown(name)
		}
		x, err := params[i].ParseValue(settings[name])
		if err != nil {
			return nil, err
		}
		v[name] = x
	}
	return v, nil
}
