package ensemble

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

// The members of an ensemble are written as one text parameter, so that
// the same words work in `tealab train --param models=...`, in a form of
// the lab and inside `tealab compare --model 'voting:models=...'`, whose
// parameters are split on commas:
//
//	logistic+knn[k=15;metric=l1]+tree[max_depth=4]
//
// Members are joined by "+"; each is a registered model's name, optionally
// followed by its own parameters in brackets, separated by ";". A piece
// without "=" continues the value before it (a loss matrix 0,1;5,0), as
// compare's own parsing continues a list after a comma. A "+" inside
// brackets belongs to a value (1e+5).

// maxMembers bounds a list: a hundred members is a typing slip, not an
// ensemble.
const maxMembers = 50

// member is one model of an ensemble as the list names it.
type member struct {
	Text     string            // as written, e.g. "knn[k=5]": how reports name it
	Name     string            // the registry's name
	Settings map[string]string // its parameters as text
}

// resolved is a member whose spec and values the registry has checked.
type resolved struct {
	member
	spec   *engine.Spec
	values engine.Values
	role   string // "member", or "final" for stacking's meta-model
}

// label names the model in an error: "member knn[k=5]", "final logistic".
func (r resolved) label() string {
	if r.role == "" {
		return "member " + r.Text
	}
	return r.role + " " + r.Text
}

// build makes a fresh unfitted model of the member.
func (r resolved) build() (engine.Model, error) {
	m, err := r.spec.New(r.values)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.label(), err)
	}
	return m, nil
}

// splitTop splits s on sep outside brackets.
func splitTop(s string, sep byte) []string {
	var parts []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[':
			depth++
		case ']':
			depth = max(depth-1, 0) // a stray ] is the member's mistake, said by parseMember
		case sep:
			if depth == 0 {
				parts = append(parts, s[start:i])
				start = i + 1
			}
		}
	}
	return append(parts, s[start:])
}

// parseList reads a list of members; syntax only. An empty list is an
// error: the caller decides what an empty parameter means.
func parseList(text string) ([]member, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil, fmt.Errorf("no members: name at least one model, e.g. logistic+knn+tree")
	}
	if i := strings.IndexFunc(text, unicode.IsControl); i >= 0 {
		return nil, fmt.Errorf("%q holds a control character (%U)", text, []rune(text[i:])[0])
	}
	parts := splitTop(text, '+')
	if len(parts) > maxMembers {
		return nil, fmt.Errorf("%d members; at most %d", len(parts), maxMembers)
	}
	out := make([]member, 0, len(parts))
	for i, part := range parts {
		m, err := parseMember(part)
		if err != nil {
			return nil, fmt.Errorf("member %d: %w", i+1, err)
		}
		out = append(out, m)
	}
	return out, nil
}

// parseMember reads one member: name or name[p=v;p=v].
func parseMember(text string) (member, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return member{}, fmt.Errorf("empty (two + in a row, or one at an end?)")
	}
	m := member{Text: text, Name: text, Settings: map[string]string{}}
	open := strings.IndexByte(text, '[')
	if name := text[:max(open, 0)]; open < 0 && strings.Contains(text, ",") && !strings.Contains(text, "=") || strings.Contains(name, ",") {
		return member{}, fmt.Errorf("%q: members are joined by +, not by commas (e.g. logistic+knn+tree)", text)
	}
	if open < 0 {
		if strings.ContainsAny(text, "];=") {
			return member{}, fmt.Errorf("%q: a member's parameters go in brackets, e.g. knn[k=5;metric=l1]", text)
		}
		return m, nil
	}
	if !strings.HasSuffix(text, "]") {
		if strings.Contains(text, "]") {
			return member{}, fmt.Errorf("%q: nothing may follow a member's closing ]", text)
		}
		return member{}, fmt.Errorf("%q: its [ is never closed", text)
	}
	m.Name = strings.TrimSpace(text[:open])
	inner := text[open+1 : len(text)-1]
	if m.Name == "" {
		return member{}, fmt.Errorf("%q: no model name before [", text)
	}
	if strings.ContainsAny(inner, "[]") {
		return member{}, fmt.Errorf("%q: brackets inside a member's brackets", text)
	}
	last := ""
	for _, piece := range strings.Split(inner, ";") {
		if strings.TrimSpace(piece) == "" {
			continue
		}
		k, v, ok := strings.Cut(piece, "=")
		k = strings.TrimSpace(k)
		if !ok && last != "" {
			m.Settings[last] += ";" + piece
			continue
		}
		if !ok || k == "" {
			return member{}, fmt.Errorf("%s: %q is not param=value (e.g. knn[k=5;metric=l1])", m.Name, strings.TrimSpace(piece))
		}
		if _, dup := m.Settings[k]; dup {
			return member{}, fmt.Errorf("%s: parameter %s given twice", m.Name, k)
		}
		m.Settings[k], last = strings.TrimSpace(v), k
	}
	for k, v := range m.Settings {
		m.Settings[k] = strings.TrimSpace(v)
	}
	return m, nil
}

// supervised says whether a spec can be a member: it classifies or
// regresses.
func supervised(s *engine.Spec) bool {
	return s.Supports(datasets.Classification) || s.Supports(datasets.Regression)
}

// memberNames lists the models that can be members, for an error.
func memberNames() string {
	var names []string
	for _, s := range engine.Specs() {
		if supervised(s) && s.Family != family {
			names = append(names, s.Name)
		}
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// resolve checks each member against the registry: a known model that
// classifies or regresses, no ensemble, parameters its own spec accepts
// (the error is the member spec's, naming its parameter and range), and
// a model its spec can build from them.
func resolve(ms []member) ([]resolved, error) {
	out := make([]resolved, 0, len(ms))
	for _, m := range ms {
		s, err := engine.Lookup(m.Name)
		if err != nil {
			return nil, fmt.Errorf("member %s: unknown model %q (valid: %s)", m.Text, m.Name, memberNames())
		}
		if s.Family == family {
			return nil, fmt.Errorf("member %s: an ensemble cannot be a member of another ensemble", m.Text)
		}
		if !supervised(s) {
			return nil, fmt.Errorf("member %s: %s neither classifies nor regresses (valid: %s)", m.Text, m.Name, memberNames())
		}
		v, err := s.Parse(m.Settings)
		if err != nil {
			return nil, fmt.Errorf("member %s: %w", m.Text, err)
		}
		r := resolved{member: m, spec: s, values: v}
		if _, err := r.build(); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// checkList is the Check of a list parameter: "" (the default members)
// or a list whose members the registry accepts. The defaults are empty:
// the registry checks a default when the spec is registered, which may be
// before the members' families have registered theirs.
func checkList(text string) error {
	if strings.TrimSpace(text) == "" {
		return nil
	}
	ms, err := parseList(text)
	if err != nil {
		return err
	}
	_, err = resolve(ms)
	return err
}

// checkOne is the Check of a parameter naming one model (stacking's
// final): "" (the default) or one member.
func checkOne(text string) error {
	if strings.TrimSpace(text) == "" {
		return nil
	}
	ms, err := parseList(text)
	if err != nil {
		return err
	}
	if len(ms) != 1 {
		return fmt.Errorf("%d models; name one (members go in models)", len(ms))
	}
	_, err = resolve(ms)
	return err
}

// taskOf is the task the training rows make: classification when they
// have classes.
func taskOf(t engine.Train) engine.Task {
	if len(t.Classes) > 0 {
		return datasets.Classification
	}
	return datasets.Regression
}

// forTask resolves a list for a task: text, or def when text is empty;
// every member must support the task.
func forTask(text, def string, task engine.Task) ([]resolved, error) {
	if strings.TrimSpace(text) == "" {
		text = def
	}
	ms, err := parseList(text)
	if err != nil {
		return nil, err
	}
	rs, err := resolve(ms)
	if err != nil {
		return nil, err
	}
	for _, r := range rs {
		if !r.spec.Supports(task) {
			return nil, fmt.Errorf("member %s does not do %s (it does %s)", r.Text, task, tasksOf(r.spec))
		}
	}
	return rs, nil
}

func tasksOf(s *engine.Spec) string {
	parts := make([]string, len(s.Tasks))
	for i, t := range s.Tasks {
		parts[i] = t.String()
	}
	return strings.Join(parts, " and ")
}

// parseWeights reads a weights parameter: "" (equal) or one number >= 0 a
// member, comma-separated, not all zero.
func parseWeights(text string) ([]float64, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil, nil
	}
	var w []float64
	sum := 0.0
	for i, part := range strings.Split(text, ",") {
		x, err := (engine.Param{Name: "weight", Kind: engine.Float, Min: 0, Max: 1e6}).ParseValue(part)
		if err != nil {
			return nil, fmt.Errorf("weight %d: %q is not a number in [0, 1e6]", i+1, strings.TrimSpace(part))
		}
		w = append(w, x.(float64))
		sum += x.(float64)
	}
	if len(w) > maxMembers {
		return nil, fmt.Errorf("%d weights; at most %d", len(w), maxMembers)
	}
	if !(sum > 0) {
		return nil, fmt.Errorf("the weights are all zero")
	}
	return w, nil
}

func checkWeights(text string) error { _, err := parseWeights(text); return err }
