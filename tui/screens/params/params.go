package params

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/metrics"
	"github.com/tealab/tealab/engine/runs"
	"github.com/tealab/tealab/tui/kit"
)

type keys struct {
	up, down    key.Binding
	left, right key.Binding
	toggle      key.Binding
	reset       key.Binding
	train       key.Binding
	StepUp      key.Binding
	StepDown    key.Binding
	sweep       key.Binding
	learning    key.Binding
}

// DefaultKeys are the hyperparameter screen's key bindings.
func DefaultKeys() keys {
	return keys{
		up:     kit.Bind("↑/shift+tab", "previous", "up", "shift+tab"),
		down:   kit.Bind("↓/tab", "next", "down", "tab"),
		left:   kit.Bind("←", "previous choice", "left"),
		right:  kit.Bind("→", "next choice", "right"),
		toggle: kit.Bind("space", "toggle", "space"),
		reset:  kit.Bind("ctrl+r", "defaults", "ctrl+r"),
		train:  kit.Bind("enter", "train", "enter"),
		// + and - step a number while its text is a whole number (else
		// they are typed: 1e-6 needs its minus).
		StepUp:   kit.Bind("+/-", "step", "+"),
		StepDown: kit.Bind("-", "step down", "-"),
		// Control keys: letters are typed into the focused field.
		sweep:    kit.Bind("ctrl+s", "sweep this", "ctrl+s"),
		learning: kit.Bind("ctrl+l", "learning curve", "ctrl+l"),
	}
}

// Field is one row of the form: a hyperparameter of the model or a setting
// of the evaluation, validated by an engine.Param either way.
type Field struct {
	P       engine.Param
	Model   bool         // a model hyperparameter (else an evaluation setting)
	setting eval.Setting // the evaluation setting's declaration (not Model)
	Input   kit.TextField
	choice  int  // Choice
	on      bool // Bool
	Err     error
}

func newField(p engine.Param, model bool, v any) *Field {
	f := &Field{P: p, Model: model}
	switch p.Kind {
	case engine.Choice:
		for i, c := range p.Choices {
			if c == engine.Format(v) {
				f.choice = i
			}
		}
	case engine.Bool:
		f.on, _ = v.(bool)
	default:
		f.Input = kit.NewInput()
		f.Input.CharLimit = 64
		f.Input.SetValue(engine.Format(v))
		f.Input.SetWidth(12)
	}
	f.validate()
	return f
}

// settingField is a field of evaluation setting st, at value v.
func settingField(st eval.Setting, v any) *Field {
	f := newField(st.Param, false, v)
	f.setting = st
	f.validate()
	return f
}

// rangeText is what the field accepts, as the form shows it.
func (f *Field) rangeText() string {
	if !f.Model {
		return f.setting.Accepts()
	}
	return f.P.Range()
}

// Text says whether the field is typed in (not a choice or a switch).
func (f *Field) Text() bool { return f.P.Kind != engine.Choice && f.P.Kind != engine.Bool }

// Raw is the field's value as --param would spell it.
func (f *Field) Raw() string {
	switch f.P.Kind {
	case engine.Choice:
		if len(f.P.Choices) == 0 {
			return ""
		}
		return f.P.Choices[f.choice]
	case engine.Bool:
		return strconv.FormatBool(f.on)
	}
	return f.Input.Value()
}

// parse reads the field as its declaration says: a setting through
// eval.Setting.Read, a model parameter through its Param.
func (f *Field) parse() (any, error) {
	if !f.Model && f.setting.Name != "" {
		return f.setting.Read(f.Raw())
	}
	return f.P.ParseValue(f.Raw())
}

func (f *Field) validate() { _, f.Err = f.parse() }

func (f *Field) value() any {
	v, _ := f.parse()
	return v
}

// Screen is the hyperparameter form, generated from spec.Params, with
// the evaluation settings below it.
type Screen struct {
	c      *kit.Common
	keys   keys
	ds     *datasets.Dataset
	Spec   *engine.Spec
	Fields []*Field
	focus  int // index into visible()
	offset int
	Err    error // from start-up --param, or a failed submit
	evalOf eval.Options
	Test   testSet   // the supplied test set the form has loaded
	costs  costsFile // the cost matrix the form has read
	// startTest chooses the supplied test set (test.source) when the
	// form is first built: the lab was opened with --test.
	startTest bool
	w, h      int
}

// testSet is a supplied test set as the form loaded it: the source typed,
// the data it was matched to, and what came of it.
type testSet struct {
	Source string
	ds     *datasets.Dataset
	set    *datasets.Dataset
	err    error
}

// CheckTest loads the supplied test set typed and matches its columns to
// the data's, once per source and data: the field's check, so that a
// missing column or an unseen level shows as it is typed.
func (s *Screen) CheckTest(text string) error {
	text = strings.TrimSpace(text)
	if text == "" {
		return fmt.Errorf("type the path of a file with the same columns as %s (or a built-in or generator)", s.dataName())
	}
	if s.Test.Source != text || s.Test.ds != s.ds || (s.Test.set == nil && s.Test.err == nil) {
		path, err := s.c.DataSource(text)
		var set *datasets.Dataset
		if err == nil {
			set, err = runs.Data{Test: path}.OpenTest(s.ds)
		}
		s.Test = testSet{Source: text, ds: s.ds, set: set, err: err}
	}
	return s.Test.err
}

func (s *Screen) dataName() string {
	if s.ds == nil {
		return "the data"
	}
	return s.ds.Name
}

// New is the hyperparameter screen, drawn with c.
func New(c *kit.Common, opt eval.Options) *Screen {
	return &Screen{c: c, keys: DefaultKeys(), evalOf: opt}
}

// SetModel builds the form for spec with values v (nil: defaults); opt, when
// given, replaces the evaluation settings (else they are kept from before).
func (s *Screen) SetModel(ds *datasets.Dataset, spec *engine.Spec, v engine.Values, opt *eval.Options) {
	if opt != nil {
		s.evalOf = *opt
	} else if len(s.Fields) > 0 {
		if o, err := s.Options(); err == nil {
			s.evalOf = o
		}
	}
	s.ds, s.Spec, s.Err = ds, spec, nil
	if v == nil {
		v = spec.Defaults()
	}
	s.Fields = s.Fields[:0]
	for _, p := range spec.Params {
		s.Fields = append(s.Fields, newField(p, true, v[p.Name]))
	}
	vals := eval.ValuesOf(s.evalOf)
	vals[eval.SettingTest] = s.Test.Source
	if c := s.evalOf.Costs; c != nil && s.costs.m != c && ds != nil && slices.Equal(c.Classes, ds.Classes) {
		s.costs = costsFile{source: c.Source, ds: ds, m: c} // read already (the command line's --costs)
	}
	if s.startTest {
		vals[eval.SettingScheme] = eval.SchemeTestSet
		s.startTest = false
	}
	for _, st := range eval.SettingsFor(spec, ds) {
		switch st.Name {
		case eval.SettingTest:
			st.Check = s.CheckTest
		case eval.SettingCosts:
			st.Check = s.checkCosts
		}
		if st.Kind == engine.Choice && !slices.Contains(st.Choices, engine.Format(vals[st.Name])) {
			vals[st.Name] = st.Default // a choice the data offer: the positive class unnamed
		}
		f := settingField(st, vals[st.Name])
		if st.Name == eval.SettingTest || st.Name == eval.SettingCosts {
			f.Input.CharLimit = 4096
		}
		s.Fields = append(s.Fields, f)
	}
	s.focus, s.offset = 0, 0
	s.focusField()
}

// task is what the model does on the data: a clustering or a reduction
// chosen on labelled data does not learn the target.
func (s *Screen) task() datasets.Task {
	if s.Spec == nil {
		return s.ds.Task
	}
	t, _ := s.Spec.RunsOn(s.ds.Task)
	return t
}

// unsupervisedNote says how a clustering or a reduction is evaluated, as
// the engine does (the form offers no split for it), and that a
// cross-validation asked for does not apply.
func (s *Screen) unsupervisedNote() string {
	note := eval.UnsupervisedScoring(s.task(), s.ds.Classes != nil)
	switch {
	case s.evalOf.LOO:
		return "leave-one-out does not apply to " + s.task().String() + ": " + note
	case s.evalOf.Folds >= 2:
		return fmt.Sprintf("%d-fold CV does not apply to %s: %s", s.evalOf.Folds, s.task(), note)
	}
	return "evaluation: " + note
}

// Visible lists the fields that apply: the evaluation method decides which
// of test fraction and folds show; a clustering or a reduction (whatever
// the data's target) has no split at all: it is fitted and scored on every
// row.
func (s *Screen) Visible() []*Field {
	settings := s.settings()
	unsupervised := s.ds != nil && !s.task().Supervised()
	var out []*Field
	for _, f := range s.Fields {
		if !f.Model {
			if unsupervised && f.setting.OfScheme() {
				continue
			}
			if ok, _ := f.P.AppliesTo(settings); !ok {
				continue
			}
		}
		out = append(out, f)
	}
	return out
}

// Current is the field in focus; nil on a form without fields.
func (s *Screen) Current() *Field {
	v := s.Visible()
	if len(v) == 0 {
		return nil
	}
	s.focus = min(max(s.focus, 0), len(v)-1)
	return v[s.focus]
}

func (s *Screen) focusField() {
	cur := s.Current()
	for _, f := range s.Fields {
		if f.Text() {
			if f == cur {
				f.Input.Focus()
			} else {
				f.Input.Blur()
			}
		}
	}
}

func (s *Screen) SetSize(w, h int) { s.w, s.h = w, h }

func (s *Screen) Typing() bool {
	f := s.Current()
	return f != nil && f.Text()
}

func (s *Screen) Back() bool { return false }

func (s *Screen) ShortHelp() []key.Binding {
	ks := []key.Binding{s.keys.train, s.keys.down}
	if f := s.Current(); f != nil {
		switch f.P.Kind {
		case engine.Choice:
			ks = append(ks, kit.Bind("←/→", "change", "left", "right"))
		case engine.Bool:
			ks = append(ks, s.keys.toggle)
		case engine.Int, engine.Float:
			ks = append(ks, s.keys.StepUp)
		}
	}
	if s.canSweep() {
		ks = append(ks, s.keys.sweep)
	}
	if s.supervised() {
		ks = append(ks, s.keys.learning)
	}
	return append(ks, s.keys.reset)
}

// supervised says whether the model learns the data's target: sweeps and
// learning curves score held-out rows.
func (s *Screen) supervised() bool {
	return s.Spec != nil && s.ds != nil && s.task().Supervised()
}

// canSweep says whether the focused field is a model parameter a sweep can
// range over: a number, a choice or a switch.
func (s *Screen) canSweep() bool {
	f := s.Current()
	if f == nil || !f.Model || !s.supervised() {
		return false
	}
	switch f.P.Kind {
	case engine.Int, engine.Float, engine.Choice, engine.Bool:
		return true
	}
	return false
}

// sweepRequest asks for a sweep of the focused parameter (or a learning
// curve) with the form's other values, once the form is valid.
func (s *Screen) sweepRequest(learning bool) tea.Cmd {
	param := ""
	if f := s.Current(); f != nil {
		param = f.P.Name
	}
	submit := s.Submit()
	if submit == nil {
		return nil
	}
	req, ok := submit().(kit.TrainRequestMsg)
	if !ok {
		return nil
	}
	return func() tea.Msg {
		return kit.SweepRequestMsg{Values: req.Values, Opts: req.Opts, Param: param, Learning: learning}
	}
}

func (s *Screen) FullHelp() [][]key.Binding {
	return kit.HelpOf(s.ShortHelp(), []key.Binding{s.keys.up})
}

// HeaderInfo is what the header says on the right while the screen shows.
func (s *Screen) HeaderInfo() string {
	if o, err := s.Options(); err == nil && s.ds != nil {
		return fmt.Sprintf("%s · seed %d", kit.DescribeEval(o, s.task()), o.Seed)
	}
	return ""
}

func (s *Screen) Update(msg tea.Msg) tea.Cmd {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok || s.Spec == nil {
		return nil
	}
	f := s.Current()
	if f == nil {
		return nil
	}
	n := len(s.Visible())
	switch {
	case key.Matches(km, s.keys.train):
		return s.Submit()
	case key.Matches(km, s.keys.sweep) && s.canSweep():
		return s.sweepRequest(false)
	case key.Matches(km, s.keys.learning) && s.supervised():
		return s.sweepRequest(true)
	case key.Matches(km, s.keys.up):
		s.focus = (s.focus - 1 + n) % n
		s.focusField()
		return nil
	case key.Matches(km, s.keys.down):
		s.focus = (s.focus + 1) % n
		s.focusField()
		return nil
	case key.Matches(km, s.keys.reset):
		s.SetModel(s.ds, s.Spec, nil, nil)
		return nil
	}
	switch f.P.Kind {
	case engine.Choice:
		if k := len(f.P.Choices); k > 0 {
			switch {
			case key.Matches(km, s.keys.left):
				f.choice = (f.choice - 1 + k) % k
			case key.Matches(km, s.keys.right), key.Matches(km, s.keys.toggle):
				f.choice = (f.choice + 1) % k
			}
		}
	case engine.Bool:
		if key.Matches(km, s.keys.left, s.keys.right, s.keys.toggle) {
			f.on = !f.on
		}
	default:
		if dir := s.stepKey(km, f); dir != 0 {
			x, _ := strconv.ParseFloat(strings.TrimSpace(f.Input.Value()), 64)
			next := f.P.Step(x, dir)
			if f.P.Kind == engine.Int {
				f.Input.SetValue(strconv.Itoa(int(next)))
			} else {
				f.Input.SetValue(engine.Format(next))
			}
			f.Input.CursorEnd()
			f.validate()
			s.Err = nil
			return nil
		}
		var cmd tea.Cmd
		f.Input, cmd = f.Input.Update(msg)
		f.validate()
		s.Err = nil
		return cmd
	}
	f.validate()
	s.Err = nil
	return nil
}

// stepKey is +1 or -1 when km steps numeric field f, 0 when the key is
// to be typed: + and - step only an Int or Float whose text is a valid
// number ending in a digit (so "1e-" still takes its minus).
func (s *Screen) stepKey(km tea.KeyPressMsg, f *Field) int {
	if f.P.Kind != engine.Int && f.P.Kind != engine.Float {
		return 0
	}
	dir := 0
	switch {
	case key.Matches(km, s.keys.StepUp):
		dir = 1
	case key.Matches(km, s.keys.StepDown):
		dir = -1
	default:
		return 0
	}
	text := strings.TrimSpace(f.Input.Value())
	if text == "" || f.Err != nil || !strings.ContainsAny(text[len(text)-1:], "0123456789.") {
		return 0
	}
	return dir
}

// modelValues are the model's hyperparameters as the form has them now
// (invalid fields at their defaults), to tell which parameters apply.
// ModelValues are the model's parameters as the form holds them (a field
// in error at its default): what another screen runs the model with.
func (s *Screen) ModelValues() engine.Values { return s.modelValues() }

func (s *Screen) modelValues() engine.Values {
	v := engine.Values{}
	for _, f := range s.Fields {
		if !f.Model {
			continue
		}
		if f.Err != nil {
			v[f.P.Name] = f.P.Default
		} else {
			v[f.P.Name] = f.value()
		}
	}
	return v
}

// Options reads the evaluation settings; only the settings that apply must
// be valid (a bad fold count does not block a hold-out).
func (s *Screen) Options() (eval.Options, error) {
	v := eval.ValuesOf(s.evalOf)
	for _, f := range s.Visible() {
		if f.Model {
			continue
		}
		if f.Err != nil {
			return s.evalOf, f.Err
		}
		v[f.P.Name] = f.value()
	}
	if s.ds != nil && !s.task().Supervised() {
		v[eval.SettingScheme] = eval.SchemeHoldOut // fitted and scored on every row
	}
	o, err := eval.OptionsFrom(v)
	if err != nil {
		return s.evalOf, err
	}
	if eval.TestSource(v) != "" {
		o.Test = s.Test.set
	}
	if eval.CostsSource(v) != "" {
		o.Costs = s.costs.m
	}
	return o, nil
}

// settings are the evaluation settings as the form's fields spell them.
func (s *Screen) settings() engine.Values {
	v := engine.Values{}
	for _, f := range s.Fields {
		if !f.Model {
			v[f.P.Name] = f.Raw()
		}
	}
	return v
}

// Submit validates the form and asks for a run; an invalid field gets the
// focus and the reason is shown.
func (s *Screen) Submit() tea.Cmd {
	if s.Spec == nil {
		return nil
	}
	vis := s.Visible()
	for i, f := range vis {
		if f.validate(); f.Err != nil { // what the field holds now, however it got there
			s.focus = i
			s.focusField()
			s.Err = f.Err
			return nil
		}
	}
	v := make(engine.Values, len(s.Spec.Params))
	for _, f := range s.Fields {
		if f.Model {
			v[f.P.Name] = f.value()
		}
	}
	o, err := s.Options()
	if err != nil {
		s.Err = err
		return nil
	}
	if s.ds != nil && o.Folds > s.ds.Rows() {
		s.Err = fmt.Errorf("folds: %d folds need at least %d rows, %s has %d", o.Folds, o.Folds, s.ds.Name, s.ds.Rows())
		return nil
	}
	if _, err := s.Spec.New(v); err != nil {
		s.Err = fmt.Errorf("model %s: %w", s.Spec.Name, err)
		return nil
	}
	s.Err = nil
	s.evalOf = o
	return func() tea.Msg { return kit.TrainRequestMsg{Values: v, Opts: o} }
}

// ScoreOn makes the form's next evaluation the supplied test set in source
// ("" none), loaded when the form opens.
func (s *Screen) ScoreOn(source string) { s.Test.Source, s.startTest = source, source != "" }

// KeepTest keeps a test set already loaded and matched (a run being edited
// again): source as typed, matched to ds as set.
func (s *Screen) KeepTest(source string, ds, set *datasets.Dataset) {
	s.Test = testSet{Source: source, ds: ds, set: set}
}

// costsFile is a cost matrix as the form read it: the source typed, the
// data it was matched to, and what came of it.
type costsFile struct {
	source string
	ds     *datasets.Dataset
	m      *metrics.Costs
	err    error
}

// checkCosts reads the cost matrix typed, once per source and data, and
// matches its classes to the data's: the field's check, so that a class
// missing or a bad cost shows as it is typed ("" is none).
func (s *Screen) checkCosts(text string) error {
	text = strings.TrimSpace(text)
	if text == "" {
		s.costs = costsFile{}
		return nil
	}
	if s.costs.source != text || s.costs.ds != s.ds || (s.costs.m == nil && s.costs.err == nil) {
		c := costsFile{source: text, ds: s.ds}
		c.m, c.err = s.readCosts(text)
		s.costs = c
	}
	return s.costs.err
}

// readCosts reads the cost matrix in file name (confined as data are) for
// the data's classes.
func (s *Screen) readCosts(name string) (*metrics.Costs, error) {
	if s.ds == nil {
		return nil, errors.New("choose the data first")
	}
	path, err := s.c.DataSource(name)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.c.Shown(path), errors.Unwrap(err))
	}
	defer f.Close()
	m, err := metrics.ReadCosts(f, s.ds.Classes)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	m.Source = name
	return m, nil
}
