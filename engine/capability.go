package engine

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sync"
)

// A Capability is something a fitted model can show beyond its predictions:
// its coefficients, its tree, its rules, a merge list, components... Each is
// defined once with the function that reads it off a model (usually a type
// assertion to a small interface such as Coefficienter). Evaluation keeps
// what a model offers in the result under the capability's name; --json
// writes each under that name; views in the lab and sections of the text
// report ask for capabilities by name and appear exactly when a result has
// them. A new family with something new to show
// defines its capability beside its model; nothing else changes.
type Capability struct {
	Name  string // key in a result and in --json, e.g. "tree"
	Title string // for people, e.g. "decision tree"
	// Order is where what shows the capability stands among what a result
	// shows, smaller first: the lab's result views and the report's
	// sections read it, so that both list a run's capabilities alike (a
	// result's own parts, the confusion matrix or the history, have their
	// places in each front end).
	Order int
	typ   reflect.Type
	get   func(Model) (any, bool)
}

var (
	capMu sync.RWMutex
	caps  []*Capability
)

// reservedNames are the keys of a result's JSON that a capability may not
// take.
var reservedNames = []string{
	"task", "dataset", "model", "params", "evaluation", "seed", "rows", "features",
	"metrics", "std", "folds", "baseline", "confusion", "per_class", "roc", "history",
	"fold_histories", "warnings", "warning_folds", "cancelled", "stopped_early", "fit_seconds", "score_seconds", "seconds",
	"recipe", "shown_model", "status", "error",
}

// DefineCapability adds a capability shown at order (Capability.Order): get
// reads it off a fitted model and says whether the model has it. It panics
// on a duplicate or reserved name, a programmer error caught by the first
// test run.
func DefineCapability[T any](name, title string, order int, get func(Model) (T, bool)) *Capability {
	capMu.Lock()
	defer capMu.Unlock()
	if name == "" || slices.Contains(reservedNames, name) {
		panic("engine: capability name " + name + " is reserved or empty")
	}
	for _, c := range caps {
		if c.Name == name {
			panic("engine: capability defined twice: " + name)
		}
	}
	c := &Capability{Name: name, Title: title, Order: order, typ: reflect.TypeFor[T](),
		get: func(m Model) (any, bool) { return get(m) }}
	caps = append(caps, c)
	return c
}

// Capabilities lists the defined capabilities in the order they were
// defined (the order --json writes them).
func Capabilities() []*Capability {
	capMu.RLock()
	defer capMu.RUnlock()
	return slices.Clone(caps)
}

// Learned reads every capability m has. A capability whose reader panics
// (a bug in the model) is left out and named in the error; the others are
// kept.
func Learned(m Model) (map[string]any, error) {
	out := map[string]any{}
	var failed []string
	for _, c := range Capabilities() {
		func() {
			defer func() {
				if r := recover(); r != nil {
					failed = append(failed, fmt.Sprintf("%s (%v)", c.Name, r))
				}
			}()
			if v, ok := c.get(m); ok && !isNil(v) {
				out[c.Name] = v
			}
		}()
	}
	if len(failed) > 0 {
		return out, fmt.Errorf("reading what the model learned panicked: %v (a bug in the model)", failed)
	}
	return out, nil
}

func isNil(v any) bool {
	if v == nil {
		return true
	}
	switch r := reflect.ValueOf(v); r.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
		return r.IsNil()
	}
	return false
}

// Decode reads a value of this capability back from its JSON (a saved run).
func (c *Capability) Decode(raw json.RawMessage) (any, error) {
	p := reflect.New(c.typ)
	if err := json.Unmarshal(raw, p.Interface()); err != nil {
		return nil, fmt.Errorf("%s: %w", c.Name, err)
	}
	return p.Elem().Interface(), nil
}
