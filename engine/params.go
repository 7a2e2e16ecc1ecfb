package engine

import (
	"fmt"
	"math"
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
)

func (k ParamKind) String() string {
	return [...]string{"int", "float", "bool", "choice", "text"}[k]
}

// Param describes one hyperparameter. Ranges are inclusive; a NaN bound is open.
type Param struct {
	Name    string
	Kind    ParamKind
	Default any      // int, float64, bool or string, matching Kind
	Min     float64  // Int and Float
	Max     float64  // Int and Float
	Log     bool     // best explored on a log scale (learning rates, penalties)
	Choices []string // Choice
	Help    string   // one line
	// Check validates a Text value; nil accepts anything.
	Check func(string) error
}

// Values holds a model's hyperparameters, keyed by name: int, float64, bool or
// string values as the spec's kinds say. Spec.Defaults and Spec.Parse make them.
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

	default:
		return fmt.Sprint(x)
	}
}

// Describe is "k=v k=v" in spec order, for titles and run tables.
func (s *Spec) Describe(v Values) string {
	parts := make([]string, 0, len(s.Params))
	for _, p := range s.Params {
		parts = append(parts, p.Name+"="+Format(v[p.Name]))
	}
	return strings.Join(parts, " ")
}

// ParseValue reads and validates one value of this parameter. The error names
// the parameter and says what is valid.
func (p Param) ParseValue(text string) (any, error) {
	text = strings.TrimSpace(text)
	switch p.Kind {
	case Int:
		f, err := strconv.ParseFloat(text, 64)
		if err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
			return nil, fmt.Errorf("parameter %s: %q is not a whole number (%s)", p.Name, text, p.Range())
		}
		if err := p.checkRange(f); err != nil {
			return nil, err
		}
		return int(f), nil
	case Float:
		f, err := strconv.ParseFloat(text, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("parameter %s: %q is not a number (%s)", p.Name, text, p.Range())
		}
		if err := p.checkRange(f); err != nil {
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

func (p Param) checkRange(f float64) error {
	if (!math.IsNaN(p.Min) && f < p.Min) || (!math.IsNaN(p.Max) && f > p.Max) {
		return fmt.Errorf("parameter %s: %s is out of range (%s)", p.Name, Format(f), p.Range())
	}
	return nil
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
		lo = Format(p.Min)
	}
	if !math.IsNaN(p.Max) {
		hi = Format(p.Max)
	}
	return fmt.Sprintf("%s in [%s, %s]", p.Kind, lo, hi)
}

// Defaults returns every parameter at its default.
func (s *Spec) Defaults() Values {
	v := make(Values, len(s.Params))
	for _, p := range s.Params {
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
	v := s.Defaults()
	names := make([]string, 0, len(settings))
	for k := range settings {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, name := range names {
		p, ok := s.Param(name)
		if !ok {
			valid := "it has no parameters"
			if len(s.Params) > 0 {
				valid = "valid: " + strings.Join(s.ParamNames(), ", ")
			}
			return nil, fmt.Errorf("model %s has no parameter %q (%s)", s.Name, name, valid)
		}
		x, err := p.ParseValue(settings[name])
		if err != nil {
			return nil, err
		}
		v[name] = x
	}
	return v, nil
}
