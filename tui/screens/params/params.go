package params

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
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

// Evaluation methods offered by the form.
const (
	evalHoldout = "hold-out"
	EvalCV      = "k-fold CV"
	EvalLOO     = "leave-one-out"
	EvalTest    = "test set" // a supplied test set
)

// Field is one row of the form: a hyperparameter of the model or a setting
// of the evaluation, validated by an engine.Param either way.
type Field struct {
	P      engine.Param
	Model  bool // a model hyperparameter (else an evaluation setting)
	Input  kit.TextField
	choice int  // Choice
	on     bool // Bool
	Err    error
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

// rangeText is what the field accepts, as the form shows it (the seed
// takes any uint64, beyond what an Int parameter can say).
func (f *Field) rangeText() string {
	if !f.Model && f.P.Name == "seed" {
		return seedRange
	}
	return f.P.Range()
}

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

func (f *Field) validate() {
	_, f.Err = f.P.ParseValue(f.Raw())
}

func (f *Field) value() any {
	v, _ := f.P.ParseValue(f.Raw())
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
	Test   testSet // the supplied test set the form has loaded
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

func New(c *kit.Common, opt eval.Options) *Screen {
	return &Screen{c: c, keys: DefaultKeys(), evalOf: opt}
}

// evalParams are the evaluation settings as Params, so that ParseValue
// checks them like any hyperparameter.
func evalParams(spec *engine.Spec, rows, features int) []engine.Param {
	habit := eval.StandardizeNo
	if spec.Standardize {
		habit = eval.StandardizeYes
	}
	return []engine.Param{
		{Name: "evaluation", Kind: engine.Choice, Default: evalHoldout,
			Choices: []string{evalHoldout, EvalCV, EvalLOO, EvalTest}, Help: "how the model is scored on rows it did not learn from: a split of the data, or a supplied test set"},
		{Name: "test fraction", Kind: engine.Float, Default: 0.2, Min: 0.01, Max: 0.99,
			Help: "hold-out: share of rows kept aside for testing (stratified)"},
		{Name: "folds", Kind: engine.Int, Default: 5, Min: 2, Max: float64(max(rows, 2)),
			Help: "k-fold CV: number of folds (stratified)"},
		{Name: "test file", Kind: engine.Text, Default: "",
			Help: "the supplied test set: a file (or a built-in, a generator) whose rows score the model fitted on all the data; its columns are matched to the data's by name"},
		{Name: "seed", Kind: engine.Text, Default: "1", Check: checkSeed,
			Help: "seeds the split and the model: the same seed gives the same run"},
		{Name: "standardize", Kind: engine.Choice, Default: eval.StandardizeAuto,
			Choices: []string{eval.StandardizeAuto, eval.StandardizeYes, eval.StandardizeNo},
			Help: "scale numeric features to mean 0 and sd 1 (fitted on each training part), as distances and penalties need; auto does what " +
				spec.Name + " expects: " + habit},
		{Name: "reduce first", Kind: engine.Int, Default: 0, Min: 0, Max: float64(max(features, 1)),
			Help: "project the features onto their first k principal components (fitted on each training part) before the model sees them; 0 keeps them"},
	}
}

// seedRange is what the seed field accepts: any uint64, as --seed does.
const seedRange = "int in [0, 2^64-1]"

// checkSeed accepts a seed as --seed does: a whole number in 0..MaxUint64
// (an Int Param would stop at 2^53 and go through float64).
func checkSeed(text string) error {
	_, err := parseSeed(text)
	return err
}

func parseSeed(text string) (uint64, error) {
	v, err := strconv.ParseUint(strings.TrimSpace(text), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a whole number in [0, %d]", text, uint64(math.MaxUint64))
	}
	return v, nil
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
	rows, features := 0, 0
	if ds != nil {
		rows, features = ds.Rows(), len(ds.Features)
	}
	ep := evalParams(spec, rows, features)
	method := evalHoldout
	switch {
	case s.evalOf.Test != nil || s.startTest:
		method = EvalTest
		s.startTest = false
	case s.evalOf.LOO:
		method = EvalLOO
	case s.evalOf.Folds >= 2:
		method = EvalCV
	}
	folds := s.evalOf.Folds
	if folds < 2 {
		folds = 5
	}
	split := s.evalOf.Split
	if split <= 0 || split >= 1 {
		split = 0.2
	}
	vals := []any{method, split, folds, s.Test.Source, strconv.FormatUint(s.evalOf.Seed, 10), eval.StandardizeName(s.evalOf.Standardize), s.evalOf.Reduce}
	for i, p := range ep {
		if p.Name == "test file" {
			p.Check = s.CheckTest
		}
		f := newField(p, false, vals[i])
		if p.Name == "test file" {
			f.Input.CharLimit = 4096
		}
		s.Fields = append(s.Fields, f)
	}
	s.focus, s.offset = 0, 0
	s.focusField()
}

func (s *Screen) setError(err error) { s.Err = err }

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
	var out []*Field
	method := ""
	for _, f := range s.Fields {
		if f.P.Name == "evaluation" && !f.Model {
			method = f.Raw()
		}
	}
	unsupervised := s.ds != nil && !s.task().Supervised()
	for _, f := range s.Fields {
		if !f.Model {
			switch f.P.Name {
			case "evaluation":
				if unsupervised {
					continue
				}
			case "test fraction":
				if unsupervised || method != evalHoldout {
					continue
				}
			case "folds":
				if unsupervised || method != EvalCV {
					continue
				}
			case "test file":
				if unsupervised || method != EvalTest {
					continue
				}
			}
		}
		out = append(out, f)
	}
	return out
}

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
	o := s.evalOf
	vis := s.Visible()
	get := func(name string) (any, error) {
		for _, f := range s.Fields {
			if !f.Model && f.P.Name == name {
				shown := false
				for _, g := range vis {
					shown = shown || g == f
				}
				if !shown {
					return nil, nil
				}
				return f.value(), f.Err
			}
		}
		return nil, nil
	}
	method, err := get("evaluation")
	if err != nil {
		return o, err
	}
	o.LOO, o.Folds, o.Test = method == EvalLOO, 0, nil
	if x, err := get("test file"); err != nil {
		return o, err
	} else if x != nil {
		o.Test = s.Test.set
	}
	if x, err := get("test fraction"); err != nil {
		return o, err
	} else if x != nil {
		o.Split = x.(float64)
	}
	if x, err := get("folds"); err != nil {
		return o, err
	} else if x != nil {
		o.Folds = x.(int)
	}
	if x, err := get("seed"); err != nil {
		return o, err
	} else if x != nil {
		if o.Seed, err = parseSeed(x.(string)); err != nil {
			return o, err
		}
	}
	if x, err := get("standardize"); err != nil {
		return o, err
	} else if x != nil {
		if o.Standardize, err = eval.ParseStandardize(x.(string)); err != nil {
			return o, err
		}
	}
	if x, err := get("reduce first"); err != nil {
		return o, err
	} else if x != nil {
		o.Reduce = x.(int)
	}
	return o, nil
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
