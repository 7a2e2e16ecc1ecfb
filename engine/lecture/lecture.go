package lecture

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

// Experiment is one of the notes' experiments.
type Experiment struct {
	Name    string // what `tealab lab NAME` takes: "gd", "bias-variance"
	Title   string // "gradient descent on a cost surface"
	Summary string // one line: what it shows
	// Source names the notes that teach it, by author, title and lecture.
	Source string
	// Knobs are its settings, parsed and checked as a model's parameters
	// are. A list of numbers is a Text knob made by ListKnob.
	Knobs []engine.Param
	// Data names the knob whose value is a data set, as `compare --data`
	// takes one ("" when the experiment draws its own): the front end opens
	// it and hands it over in In.Data.
	Data string
	// Run computes the experiment, calling show with each partial result
	// (never changed after it is shown) so that a front end can draw it
	// growing. Cancelled, it returns what it has with ctx.Err().
	Run func(ctx context.Context, in In, show func(Frame)) (any, error)
	// Decode reads a result back from its JSON (a recorded experiment).
	Decode func([]byte) (any, error)
}

// In is what one run of an experiment gets: its knobs, parsed, and the
// data set its Data knob names.
type In struct {
	Values engine.Values
	Data   *datasets.Dataset
}

// Frame is a partial result: Result as computed so far, Done of Total
// units of work.
type Frame struct {
	Result      any
	Done, Total int
}

var registry = map[string]*Experiment{}

// Register adds an experiment; it panics on a duplicate or incomplete one,
// so that the first test run catches it.
func Register(e Experiment) {
	switch {
	case e.Name == "" || e.Title == "" || e.Summary == "" || e.Source == "":
		panic(fmt.Sprintf("lecture: experiment %q needs a name, title, summary and source", e.Name))
	case e.Run == nil || e.Decode == nil:
		panic("lecture: experiment " + e.Name + " needs Run and Decode")
	case registry[e.Name] != nil:
		panic("lecture: experiment " + e.Name + " registered twice")
	}
	if e.Data != "" {
		if _, ok := e.Knob(e.Data); !ok {
			panic("lecture: experiment " + e.Name + "'s data knob " + e.Data + " is not one of its knobs")
		}
	}
	registry[e.Name] = &e
}

// All lists the experiments in the order the notes teach them.
func All() []*Experiment {
	out := make([]*Experiment, 0, len(registry))
	for _, e := range registry {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := slices.Index(order, out[i].Name), slices.Index(order, out[j].Name)
		if a != b {
			return uint(a) < uint(b) // unlisted (-1) last
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// order is the notes' order: optimisation, then bias and variance,
// regularisation, double descent, learning theory, features.
var order = []string{"gd", "bias-variance", "path", "double-descent", "hoeffding", "dichotomies", "kernel"}

// Names lists the experiments' names, in All's order.
func Names() []string {
	var out []string
	for _, e := range All() {
		out = append(out, e.Name)
	}
	return out
}

// Lookup finds an experiment by name; the error lists the valid ones.
func Lookup(name string) (*Experiment, error) {
	if e := registry[strings.TrimSpace(name)]; e != nil {
		return e, nil
	}
	return nil, fmt.Errorf("unknown experiment %q (valid: %s)", name, strings.Join(Names(), ", "))
}

// Knob finds a knob by name.
func (e *Experiment) Knob(name string) (engine.Param, bool) {
	for _, p := range e.Knobs {
		if p.Name == name {
			return p, true
		}
	}
	return engine.Param{}, false
}

// Defaults is every knob at its default.
func (e *Experiment) Defaults() engine.Values { return engine.DefaultsOf(e.Knobs) }

// Parse starts from the defaults and applies name=value settings; an
// unknown name or a bad value is an error that says what is valid.
func (e *Experiment) Parse(settings map[string]string) (engine.Values, error) {
	return engine.ParseParams(e.Knobs, settings, func(name string) error {
		var valid []string
		for _, k := range e.Knobs {
			valid = append(valid, k.Name)
		}
		return fmt.Errorf("experiment %s has no knob %q (valid: %s)", e.Name, name, strings.Join(valid, ", "))
	})
}

// Args gives v back as text, knob by knob in the experiment's order, the
// knobs that do not apply (their When) left out: what a record keeps and
// a command line repeats.
func (e *Experiment) Args(v engine.Values) [][2]string {
	var out [][2]string
	for _, p := range e.Knobs {
		if ok, _ := p.AppliesTo(v); !ok {
			continue
		}
		if x, ok := v[p.Name]; ok {
			out = append(out, [2]string{p.Name, engine.Format(x)})
		}
	}
	return out
}

// DecodeAs is an Experiment's Decode for results of type T.
func DecodeAs[T any](b []byte) (any, error) {
	r := new(T)
	if err := json.Unmarshal(b, r); err != nil {
		return nil, err
	}
	return r, nil
}

// SeedKnob is the seed knob every experiment that draws at random takes:
// the same seed gives the same picture.
func SeedKnob() engine.Param {
	return engine.Param{Name: "seed", Kind: engine.Int, Default: 1, Min: 0, Max: 1 << 53, Help: "random seed: the same seed draws the same picture"}
}

// seedWhen is SeedKnob for an experiment that draws at random only under
// some of its choices.
func seedWhen(a *engine.Applies) engine.Param {
	p := SeedKnob()
	p.When = a
	return p
}
