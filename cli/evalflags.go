package cli

import (
	"errors"
	"flag"
	"strconv"
	"strings"
	"unicode"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/experiment"
)

// evalUse says which of the declared evaluation settings (evalSettings) a
// command takes, and how.
type evalUse struct {
	// fixed is the scheme the command always evaluates by; "" lets its
	// flags choose one (--split, --cv, --loo, --test), the hold-out by
	// default.
	fixed string
	// omit names each declared setting the command does not take, with
	// why; the scheme is omitted exactly when it is fixed.
	omit map[string]string
	// defaults replace declared defaults, by setting name.
	defaults map[string]any
	// extra are the settings it takes that are declared beside eval's.
	extra []eval.Setting
}

// evalSettings are every declared evaluation setting a command may take:
// eval's, and the repeats of an experiment.
func evalSettings() []eval.Setting {
	return append(eval.Settings(), experiment.RepeatsSetting())
}

// What each command takes. A command that does not take a setting says
// why here; TestEvalFlagsFollowTheDeclaration holds every command to it.
var (
	// trainEval: tealab train and the lab's start-up flags, one run
	// evaluated as eval.Run does it. Every command but compare takes
	// --positive (the positive class of two classes): train and the lab,
	// sweep and learning-curve, whose points are scored by eval.Run too.
	trainEval = evalUse{omit: map[string]string{
		experiment.SettingRepeats: "a run is evaluated once; tealab compare repeats a cross-validation",
	}}
	// tuneEval: tealab sweep and learning-curve score every point on the
	// same folds of one k-fold CV.
	tuneEval = evalUse{fixed: eval.SchemeKFold, omit: map[string]string{
		eval.SettingScheme:        "always k-fold CV, every point on the same folds",
		eval.SettingSplit:         "always k-fold CV, every point on the same folds",
		eval.SettingTest:          "always k-fold CV, every point on the same folds",
		eval.SettingReduce:        "the points are fitted on the features as they are; tealab train --reduce reduces them first",
		eval.SettingCosts:         "the points are scored by their own decisions; tealab train --costs scores one model's decisions under a cost matrix",
		experiment.SettingRepeats: "one k-fold CV for every point",
	}}
	// compareEval: tealab compare runs the Experimenter, whose repeated
	// k-fold CV is 10 × 10 unless asked otherwise, as in the lab
	// (experiment.DefaultFolds).
	compareEval = evalUse{fixed: eval.SchemeKFold,
		defaults: map[string]any{eval.SettingFolds: experiment.DefaultFolds},
		extra:    []eval.Setting{experiment.RepeatsSetting()},
		omit: map[string]string{
			eval.SettingScheme:      "always repeated k-fold CV, the same folds for every model",
			eval.SettingSplit:       "always repeated k-fold CV, the same folds for every model",
			eval.SettingTest:        "always repeated k-fold CV, the same folds for every model",
			eval.SettingImpute:      "each model prepares its features as it expects",
			eval.SettingFill:        "each model prepares its features as it expects",
			eval.SettingIndicator:   "each model prepares its features as it expects",
			eval.SettingStandardize: "each model prepares its features as it expects",
			eval.SettingDiscretize:  "each model prepares its features as it expects",
			eval.SettingBins:        "each model prepares its features as it expects",
			eval.SettingEncoding:    "each model prepares its features as it expects",
			eval.SettingLift:        "each model prepares its features as it expects",
			eval.SettingResample:    "each model learns from the training parts as they are",
			eval.SettingClassWeight: "each model learns from the training parts as they are",
			eval.SettingSelect:      "each model learns from every feature",
			eval.SettingReduce:      "each model is fitted on the features as they are",
			eval.SettingPositive:    "each data set is scored with its own rarer class positive; tealab train --positive chooses it for one",
			eval.SettingCosts:       "the models are compared by their own decisions; tealab train --costs scores one under a cost matrix",
		}}
)

// evalFlags are a command's evaluation flags, made from the declared
// settings: each flag's name, default, help and range are its setting's,
// and what is typed is read by the setting once the flags are parsed, so
// that every command says a mistake alike: `--split "1.5" is out of range
// (float in [0.001, 0.999])`.
type evalFlags struct {
	cmd   string
	use   evalUse
	flags []*settingFlag
}

// settingFlag is the flag of one setting, or a switch choosing a scheme
// (--loo).
type settingFlag struct {
	s      eval.Setting
	scheme string // the scheme giving the flag chooses; "" none
	swtch  bool   // a switch: chooses its scheme, takes no value
	text   string
	set    bool
	typed  string // the flag given, when an alias of the setting's (--standardize)
}

// aliasFlag is another name of a setting's flag (Setting.Aliases).
type aliasFlag struct {
	f    *settingFlag
	name string
}

func (a aliasFlag) String() string {
	if a.f == nil {
		return ""
	}
	return a.f.String()
}

func (a aliasFlag) Set(text string) error {
	a.f.typed = a.name
	return a.f.Set(text)
}

func (f *settingFlag) String() string {
	if f == nil {
		return ""
	}
	return f.text
}

func (f *settingFlag) Set(text string) error {
	if f.swtch {
		if _, err := strconv.ParseBool(text); err != nil {
			return err
		}
	}
	f.text, f.set = text, true
	return nil
}

func (f *settingFlag) IsBoolFlag() bool { return f.swtch }

// chooses says whether the flag was given and chooses a scheme.
func (f *settingFlag) chooses() bool {
	if f.scheme == "" || !f.set {
		return false
	}
	on, _ := strconv.ParseBool(f.text)
	return on || !f.swtch
}

// register adds a flag for each declared setting the command takes, and
// a switch for each scheme without a setting (--loo) when the flags
// choose the scheme. A default is shown where it counts: the hold-out's
// fraction for train, the folds for sweep.
func (e *evalFlags) register(fs *flag.FlagSet, use evalUse) {
	e.cmd, e.use, e.flags = fs.Name(), use, nil
	def := e.defaults()
	for _, s := range append(eval.Settings(), use.extra...) {
		if _, omitted := use.omit[s.Name]; omitted || s.Flag == "" {
			continue
		}
		if d, ok := use.defaults[s.Name]; ok {
			s.Default = d
		}
		f := &settingFlag{s: s}
		if use.fixed == "" && s.OfScheme() {
			f.scheme = s.When.In[0]
		}
		if ok, _ := s.AppliesTo(def); ok {
			f.text = engine.Format(s.Default) // flag.Var takes it as the default it prints
		}
		fs.Var(f, s.Flag, flagUsage(s))
		for _, alias := range s.Aliases {
			fs.Var(aliasFlag{f, alias}, alias, "the same as --"+s.Flag+"; `value`s as the choices or their older names (yes, no)")
		}
		f.text = ""
		e.flags = append(e.flags, f)
	}
	if _, omitted := use.omit[eval.SettingScheme]; omitted || use.fixed != "" {
		return
	}
	scheme, _ := eval.LookupSetting(eval.SettingScheme)
	for _, sc := range eval.Schemes() {
		if sc.Switch() {
			f := &settingFlag{s: eval.Setting{Param: scheme.Param, Flag: sc.Flag}, scheme: sc.Name, swtch: true}
			fs.Var(f, sc.Flag, sc.Help)
			e.flags = append(e.flags, f)
		}
	}
}

// flagUsage is a setting's help line and what it takes; the first word of
// that (its kind, or its choices) names the value in --help: "-split
// float", "-standardize auto|yes|no".
func flagUsage(s eval.Setting) string {
	if s.Kind == engine.Choice {
		return s.Help + "; one of `" + strings.Join(s.Choices, "|") + "`"
	}
	acc := s.Accepts()
	n := strings.IndexFunc(acc, func(r rune) bool { return !unicode.IsLetter(r) })
	if n < 0 {
		n = len(acc)
	}
	if n == 0 {
		return s.Help + "; " + acc
	}
	return s.Help + "; `" + acc[:n] + "`" + acc[n:]
}

// defaults are the settings before any flag: the declared defaults, as
// the command replaces some, its scheme when fixed.
func (e *evalFlags) defaults() engine.Values {
	v := eval.Defaults()
	for _, s := range e.use.extra {
		v[s.Name] = s.Default
	}
	for k, x := range e.use.defaults {
		v[k] = x
	}
	if e.use.fixed != "" {
		v[eval.SettingScheme] = e.use.fixed
	}
	return v
}

// values reads the flags given into the settings, each checked by its
// declaration; at most one flag may choose the scheme.
func (e *evalFlags) values() (engine.Values, error) {
	v := e.defaults()
	var chose, given []string
	for _, f := range e.flags {
		if f.chooses() {
			chose, given = append(chose, f.scheme), append(given, "--"+f.s.Flag)
		}
	}
	if len(given) > 1 {
		var all []string
		for _, sc := range eval.Schemes() {
			all = append(all, "--"+sc.Flag)
		}
		return nil, usagef("%s%s each choose the evaluation (%s): choose one of %s",
			e.prefix(), and(given), strings.Join(chose, ", "), and(all))
	}
	if len(chose) == 1 {
		v[eval.SettingScheme] = chose[0]
	}
	for _, f := range e.flags {
		if !f.set || f.swtch {
			continue
		}
		x, err := f.s.Read(f.text)
		if se := (*eval.SettingError)(nil); errors.As(err, &se) && f.typed != "" {
			se.Flag = f.typed // say it by the flag given
		}
		if err != nil {
			return nil, e.problem(err)
		}
		v[f.s.Name] = x
	}
	return v, nil
}

// options are the flags as eval.Options, with the settings they came
// from (the supplied test set's source among them: eval.TestSource).
func (e *evalFlags) options() (eval.Options, engine.Values, error) {
	v, err := e.values()
	if err != nil {
		return eval.Options{}, nil, err
	}
	o, err := eval.OptionsFrom(v)
	if err != nil {
		return eval.Options{}, nil, e.problem(err)
	}
	return o, v, nil
}

// problem words a setting's refusal by its flag: `train: --split "1.5"
// is out of range (float in [0.001, 0.999])`.
func (e *evalFlags) problem(err error) error {
	var se *eval.SettingError
	if errors.As(err, &se) && se.Flag != "" {
		return usagef("%s--%s %s", e.prefix(), se.Flag, se.Reason)
	}
	return usagef("%s%v", e.prefix(), err)
}

// prefix names the command before a message: "train: "; none for the
// lab's own flags, which Main already prefixes with "tealab: ".
func (e *evalFlags) prefix() string {
	if e.cmd == "tealab" {
		return ""
	}
	return e.cmd + ": "
}

// and joins "a, b and c".
func and(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// given names the first evaluation flag given ("--cv"); "" none.
func (e *evalFlags) given() string {
	for _, f := range e.flags {
		if f.set {
			return "--" + f.s.Flag
		}
	}
	return ""
}
