package lectures

import (
	"slices"
	"strconv"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/lecture"
	"github.com/tealab/tealab/tui/kit"
)

// field is one knob of the form: a text field for numbers, lists and
// text, or a choice (a choice or a bool) turned with ←/→. Each is checked
// as it is typed, as the model's parameters are.
type field struct {
	p      engine.Param
	in     kit.TextField
	choice int // into choices, for a choice or a bool
	err    error
}

func (f *field) choices() []string {
	switch f.p.Kind {
	case engine.Choice:
		return f.p.Choices
	case engine.Bool:
		return []string{"false", "true"}
	}
	return nil
}

// text is the field's value as typed.
func (f *field) text() string {
	if cs := f.choices(); cs != nil {
		return cs[f.choice]
	}
	return f.in.Value()
}

func (f *field) validate() { _, f.err = f.p.ParseValue(f.text()) }

func newField(p engine.Param, v any) *field {
	f := &field{p: p, in: kit.NewInput()}
	text := engine.Format(v)
	if cs := f.choices(); cs != nil {
		f.choice = max(slices.Index(cs, text), 0)
	} else {
		f.in.SetValue(text)
		f.in.CharLimit = 200
	}
	return f
}

// form is an experiment's knobs.
type form struct {
	e      *lecture.Experiment
	fields []*field
	cur    int // index into visible()
}

// newForm is e's form holding v (its defaults when nil).
func newForm(e *lecture.Experiment, v engine.Values) *form {
	if v == nil {
		v = e.Defaults()
	}
	f := &form{e: e}
	for _, p := range e.Knobs {
		f.fields = append(f.fields, newField(p, v[p.Name]))
	}
	return f
}

// values are the knobs as typed, for When (a field with an error counts
// as its default).
func (f *form) values() engine.Values {
	v := f.e.Defaults()
	for _, fl := range f.fields {
		if x, err := fl.p.ParseValue(fl.text()); err == nil {
			v[fl.p.Name] = x
		}
	}
	return v
}

// visible are the fields whose knob applies under the others' values.
func (f *form) visible() []*field {
	v := f.values()
	var out []*field
	for _, fl := range f.fields {
		if ok, _ := fl.p.AppliesTo(v); ok {
			out = append(out, fl)
		}
	}
	return out
}

// current is the field under the cursor.
func (f *form) current() *field {
	vis := f.visible()
	if len(vis) == 0 {
		return nil
	}
	f.cur = max(min(f.cur, len(vis)-1), 0)
	return vis[f.cur]
}

// focus gives the keyboard to the current field when it takes text.
func (f *form) focus() {
	for _, fl := range f.fields {
		fl.in.Blur()
	}
	if c := f.current(); c != nil && c.choices() == nil {
		c.in.Focus()
		c.in.CursorEnd()
	}
}

// move goes up or down the visible fields.
func (f *form) move(d int) {
	n := len(f.visible())
	if n > 0 {
		f.cur = (f.cur + d + n) % n
	}
	f.focus()
}

// turn steps a choice, or a number by its knob's step.
func (f *form) turn(d int) {
	c := f.current()
	if c == nil {
		return
	}
	if cs := c.choices(); cs != nil {
		c.choice = (c.choice + d + len(cs)) % len(cs)
		c.validate()
		return
	}
	if c.p.Kind == engine.Int || c.p.Kind == engine.Float {
		x, err := strconv.ParseFloat(c.in.Value(), 64)
		if err != nil {
			return
		}
		x = c.p.Step(x, d)
		if c.p.Kind == engine.Int {
			c.in.SetValue(strconv.Itoa(int(x)))
		} else {
			c.in.SetValue(engine.Format(x))
		}
		c.in.CursorEnd()
		c.validate()
	}
}

// parse is the form's values, checked; the first field at fault is the
// error.
func (f *form) parse() (engine.Values, error) {
	settings := map[string]string{}
	v := f.values()
	for _, fl := range f.fields {
		if ok, _ := fl.p.AppliesTo(v); !ok {
			continue
		}
		if fl.validate(); fl.err != nil {
			return nil, fl.err
		}
		settings[fl.p.Name] = fl.text()
	}
	return f.e.Parse(settings)
}
