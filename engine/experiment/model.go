package experiment

import (
	"fmt"
	"strings"

	"github.com/tealab/tealab/engine"
)

// Model is one contestant: a registered model with its parameters, parsed
// once from text such as "knn:k=5,weights=distance".
type Model struct {
	Label  string // as given, trimmed: what tables show
	Spec   *engine.Spec
	Values engine.Values
}

// ParseModel reads "name" or "name:param=value,param=value" and checks the
// parameters against the model's spec.
func ParseModel(s string) (Model, error) {
	s = strings.TrimSpace(s)
	name, args, _ := strings.Cut(s, ":")
	spec, err := engine.Lookup(strings.TrimSpace(name))
	if err != nil {
		return Model{}, err
	}
	settings := map[string]string{}
	last := "" // a piece without = continues a list: hidden=64,32
	for _, f := range strings.Split(args, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		k, v, ok := strings.Cut(f, "=")
		k = strings.TrimSpace(k)
		if !ok && last != "" {
			settings[last] += "," + f
			continue
		}
		if !ok || k == "" {
			return Model{}, fmt.Errorf("model %q: %q is not param=value (e.g. knn:k=5,weights=distance)", s, f)
		}
		if _, dup := settings[k]; dup {
			return Model{}, fmt.Errorf("model %q: parameter %s given twice", s, k)
		}
		settings[k], last = strings.TrimSpace(v), k
	}
	v, err := spec.Parse(settings)
	if err != nil {
		return Model{}, err
	}
	return Model{Label: s, Spec: spec, Values: v}, nil
}
