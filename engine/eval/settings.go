package eval

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

// Evaluation settings: how a run is scored, declared once. Each is an
// engine.Param (kind, default, inclusive range or choices, one help line,
// and When it has an effect), so that the lab's form, every command's
// flags, recipes and run commands read the same default and range and say
// a mistake alike. Options is what the settings make (OptionsFrom);
// ValuesOf and Args go back the other way, to show or repeat a run.

// The evaluation settings by name, as the lab's form labels them and
// errors name them.
const (
	SettingScheme      = "evaluation"
	SettingSplit       = "test fraction"
	SettingFolds       = "folds"
	SettingTest        = "test file"
	SettingSeed        = "seed"
	SettingImpute      = "imputation"
	SettingFill        = "fill value"
	SettingIndicator   = "missing indicators"
	SettingStandardize = "scaling" // --scale; --standardize is its alias
	SettingDiscretize  = "discretize"
	SettingBins        = "bins"
	SettingEncoding    = "nominal encoding"
	SettingLift        = "polynomial lift"
	SettingReduce      = "reduce first"
	SettingResample    = "resample"
	SettingClassWeight = "class weight"
	SettingSelect      = "select features"
	SettingPositive    = "positive class"
	SettingCosts       = "costs"
)

// The schemes, the choices of SettingScheme.
const (
	SchemeHoldOut = "hold-out"
	SchemeKFold   = "k-fold CV"
	SchemeLOO     = "leave-one-out"
	SchemeTestSet = "test set" // a supplied test set (Options.Test)
)

// Setting is one evaluation setting as declared: its Param (Name, Kind,
// Default, Min/Max or Choices, Help, When) and how a command line spells
// it.
type Setting struct {
	engine.Param
	// Flag is the setting's flag on a command line, without dashes
	// ("split"). The scheme has none: a command line chooses it by the
	// flag of the setting that applies only under one scheme (--split,
	// --cv, --test) or by the switch of a scheme that has no setting
	// (Scheme.Flag: --loo).
	Flag string
	// Valid says what is valid when Param.Range cannot say it (a seed is
	// any uint64, beyond what an Int can hold); "" for Param.Range.
	Valid string
	// Aliases are other flags a command line takes for the setting
	// (--standardize for --scale), each read by the setting.
	Aliases []string
	// canon spells a value the way Param.ParseValue takes it, for a
	// setting that also takes other spellings (scaling: yes, true, on).
	canon func(string) string
}

// Accepts says what values are valid: Valid, else Param.Range ("float in
// [0.001, 0.999]").
func (s Setting) Accepts() string {
	if s.Valid != "" {
		return s.Valid
	}
	return s.Range()
}

// OfScheme says whether the setting is about how the rows are split: the
// scheme itself, or a setting that applies under one scheme only. A
// clustering or a reduction, fitted and scored on every row, takes none
// of these.
func (s Setting) OfScheme() bool {
	return s.Name == SettingScheme || (s.When != nil && s.When.Param == SettingScheme)
}

// SettingError is a value a setting does not take.
type SettingError struct {
	Name   string // the setting ("test fraction")
	Flag   string // its flag on a command line ("split"); "" none
	Reason string // what is wrong and what is valid: `"1.5" is out of range (float in [0.001, 0.999])`
}

func (e *SettingError) Error() string { return e.Name + ": " + e.Reason }

// Read reads and checks one value of the setting as typed (a flag, a
// field of the form, a recipe), into the type its Kind says: float64,
// int or string. The error is a *SettingError whose Reason is worded as
// the model parameters' are (engine.Param.ParseValue).
func (s Setting) Read(text string) (any, error) {
	if s.canon != nil {
		text = s.canon(text)
	}
	x, err := s.ParseValue(text)
	if err != nil {
		return nil, &SettingError{Name: s.Name, Flag: s.Flag, Reason: strings.TrimPrefix(err.Error(), "parameter "+s.Name+": ")}
	}
	return x, nil
}

// Scheme is one way of scoring a model on rows it did not learn from.
type Scheme struct {
	Name string // as SettingScheme spells it
	// Flag chooses it on a command line: the flag of its one setting
	// (--split F, --cv K, --test SOURCE), or a switch of its own when it
	// has none (--loo).
	Flag string
	Help string // one line, for a switch
}

var schemes = []Scheme{
	{SchemeHoldOut, "split", "a stratified hold-out"},
	{SchemeKFold, "cv", "stratified k-fold cross-validation"},
	{SchemeLOO, "loo", "leave-one-out cross-validation: a fold per row"},
	{SchemeTestSet, "test", "score on a supplied test set"},
}

// Schemes lists the schemes in the order SettingScheme offers them.
func Schemes() []Scheme { return slices.Clone(schemes) }

func when(scheme string) *engine.Applies {
	return &engine.Applies{Param: SettingScheme, In: []string{scheme}}
}

// settings is the declaration: the one place an evaluation setting's
// default and range are written, in the order the lab's form shows them.
var settings = []Setting{
	{Param: engine.Param{Name: SettingScheme, Kind: engine.Choice, Default: SchemeHoldOut,
		Choices: []string{SchemeHoldOut, SchemeKFold, SchemeLOO, SchemeTestSet},
		Help:    "how the model is scored on rows it did not learn from: a split of the data, or a supplied test set"}},
	{Param: engine.Param{Name: SettingSplit, Kind: engine.Float, Default: 0.2, Min: 0.001, Max: 0.999,
		Help: "hold-out: share of rows kept aside for testing (stratified)", When: when(SchemeHoldOut)},
		Flag: "split"},
	{Param: engine.Param{Name: SettingFolds, Kind: engine.Int, Default: 5, Min: 2, Max: math.NaN(),
		Help: "k-fold CV: number of folds (stratified)", When: when(SchemeKFold)},
		Flag: "cv"},
	{Param: engine.Param{Name: SettingTest, Kind: engine.Text, Default: "",
		Help: "the supplied test set, whose rows score the model fitted on all the data; its columns are matched to the data's by name",
		When: when(SchemeTestSet)},
		Flag: "test", Valid: "source: a file, built-in or generator, read as the data are"},
	{Param: engine.Param{Name: SettingSeed, Kind: engine.Text, Default: "1", Check: checkSeed,
		Help: "seeds the split (or the folds), the model and a sweep's random draws: the same seed gives the same run"},
		Flag: "seed", Valid: SeedRange},
	{Param: engine.Param{Name: SettingImpute, Kind: engine.Choice, Default: ImputeAuto,
		Choices: []string{ImputeAuto, ImputeMean, ImputeMedian, ImputeMostFrequent, ImputeConstant},
		Help:    "pipeline: how missing numeric values are filled (fitted on each training part; nominal ones take the most frequent level): auto is the mean, or kept missing for a model that takes them"},
		Flag: "impute"},
	{Param: engine.Param{Name: SettingFill, Kind: engine.Float, Default: 0.0, Min: math.NaN(), Max: math.NaN(),
		Help: "pipeline: the value missing numeric values are filled with", When: &engine.Applies{Param: SettingImpute, In: []string{ImputeConstant}}},
		Flag: "impute-value"},
	{Param: engine.Param{Name: SettingIndicator, Kind: engine.Choice, Default: No, Choices: []string{No, Yes},
		Help: "pipeline: yes adds a 0/1 column missing_<col>, 1 where the value was missing, for each column with a missing value in the training part"},
		Flag: "missing-indicator"},
	{Param: engine.Param{Name: SettingStandardize, Kind: engine.Choice, Default: StandardizeAuto,
		Choices: []string{StandardizeAuto, ScaleStandardize, ScaleMinMax, ScaleRobust, ScaleNone},
		Help:    "pipeline: scale numeric features (fitted on each training part): standardize to mean 0 and sd 1, min-max to [0, 1], robust by the median and interquartile range; auto does what the model expects"},
		Flag: "scale", Aliases: []string{"standardize"}, canon: canonScaling},
	{Param: engine.Param{Name: SettingDiscretize, Kind: engine.Choice, Default: DiscretizeNone,
		Choices: []string{DiscretizeNone, DiscretizeWidth, DiscretizeFrequency, DiscretizeMDL},
		Help:    "pipeline: cut each numeric feature into bins (fitted on each training part), a nominal feature then encoded: equal-width or equal-frequency bins as scikit-learn's KBinsDiscretizer, mdl as Weka's supervised Discretize (classes only)"},
		Flag: "discretize"},
	{Param: engine.Param{Name: SettingBins, Kind: engine.Int, Default: 10, Min: 2, Max: 1000,
		Help: "pipeline: bins each numeric feature is cut into",
		When: &engine.Applies{Param: SettingDiscretize, In: []string{DiscretizeWidth, DiscretizeFrequency}}},
		Flag: "bins"},
	{Param: engine.Param{Name: SettingEncoding, Kind: engine.Choice, Default: EncodeAuto, Choices: []string{EncodeAuto, EncodeOneHot, EncodeOrdinal},
		Help: "pipeline: nominal features as 0/1 columns, one a level (one-hot), or as their level codes (ordinal); auto does what the model expects"},
		Flag: "encode"},
	{Param: engine.Param{Name: SettingLift, Kind: engine.Int, Default: 1, Min: 1, Max: 10,
		Help: "pipeline: polynomial lift for any model: every product of up to k prepared features (2: squares and pairwise interactions), before scaling; 1 none"},
		Flag: "lift"},
	{Param: engine.Param{Name: SettingReduce, Kind: engine.Int, Default: 0, Min: 0, Max: math.NaN(),
		Help: "pipeline: project the features onto their first k principal components (fitted on each training part), the last step of the features; 0 keeps them"},
		Flag: "reduce"},
	{Param: engine.Param{Name: SettingResample, Kind: engine.Choice, Default: ResampleNone, Choices: []string{ResampleNone, ResampleOver, ResampleUnder, ResampleSMOTE},
		Help: "classification: rebalance each training part, never the held-out rows (seeded): over draws rows of the smaller classes again and smote adds rows between a row and one of its 5 nearest of its class, up to the largest class; under drops rows of the larger classes down to the smallest"},
		Flag: "resample"},
	{Param: engine.Param{Name: SettingClassWeight, Kind: engine.Choice, Default: ClassWeightNone, Choices: []string{ClassWeightNone, ClassWeightBalanced},
		Help: "classification: balanced weighs each training row n/(classes·rows of its class), as scikit-learn's class_weight, for the models that take row weights (the run warns when the model ignores them)"},
		Flag: "class-weight"},
	{Param: engine.Param{Name: SettingSelect, Kind: engine.Text, Default: "", Check: checkSelection,
		Help: "choose the features inside each training part, never on the held-out rows: the top k of a ranking (info_gain:10, chi2:5, relieff:8...), or forward or backward selection scored by an inner 3-fold CV of the model on the training part (forward, backward:3: stop at k, else when no step helps); empty: all"},
		Flag: "select", Valid: "method:k, a ranking and how many features to keep (info_gain:10), or forward[:k] or backward[:k]"},
	{Param: engine.Param{Name: SettingPositive, Kind: engine.Text, Default: "",
		Help: "two classes: the class that precision, recall, F1 and the curves (ROC, precision-recall, calibration, lift) are about; empty: the rarer class of the data (a tie: the second)"},
		Flag: "positive", Valid: "class of the target, two classes only"},
	{Param: engine.Param{Name: SettingCosts, Kind: engine.Text, Default: "",
		Help: "classification: a CSV cost matrix (header actual,<class>...; a row per actual class: the cost of predicting each class), scored as cost, and the decision of least cost chosen without the held-out rows"},
		Flag: "costs", Valid: "file: a CSV cost matrix of the target's classes, classification only"},
}

// Settings lists the evaluation settings as declared, in the order the
// lab's form shows them. The copies are the caller's.
func Settings() []Setting {
	out := make([]Setting, len(settings))
	for i, s := range settings {
		out[i] = s.clone()
	}
	return out
}

func (s Setting) clone() Setting {
	s.Choices = slices.Clone(s.Choices)
	if s.When != nil {
		w := *s.When
		w.In = slices.Clone(w.In)
		s.When = &w
	}
	return s
}

// SettingsFor is Settings for a model and data, as a form offers them:
// the folds at most the rows, the components to reduce to at most the
// features (d nil: the declared ranges), standardize's help saying what
// auto does for spec (nil: any model), and the positive class a choice of
// the data's two classes, the rarer first chosen, or left out when the
// model does not classify two classes; the costs left out when it does not
// classify.
func SettingsFor(spec *engine.Spec, d *datasets.Dataset) []Setting {
	rows, features := 0, 0
	if d != nil {
		rows, features = d.Rows(), len(d.Features)
	}
	out := Settings()
	for i := 0; i < len(out); i++ {
		s := &out[i]
		switch s.Name {
		case SettingCosts:
			if d != nil && (d.Task != datasets.Classification || spec != nil && !spec.Supports(datasets.Classification)) {
				out = slices.Delete(out, i, i+1) // costs are of classes
				i--
				continue
			}
		case SettingPositive:
			pos, err := -1, error(nil)
			if d != nil && (spec == nil || spec.Supports(datasets.Classification)) {
				pos, err = PositiveClass(d, "")
			}
			if pos < 0 || err != nil {
				out = slices.Delete(out, i, i+1)
				i--
				continue
			}
			s.Kind, s.Choices, s.Default = engine.Choice, slices.Clone(d.Classes), d.Classes[pos]
			s.Valid = "" // the choices say it
		case SettingFolds:
			if rows > 0 {
				s.Max = float64(max(rows, 2))
			}
		case SettingResample, SettingClassWeight:
			if d != nil && d.Task != datasets.Classification || spec != nil && !spec.Supports(datasets.Classification) {
				out = slices.Delete(out, i, i+1) // classes to rebalance
				i--
				continue
			}
		case SettingSelect:
			if spec != nil && !spec.Supports(datasets.Classification) && !spec.Supports(datasets.Regression) {
				out = slices.Delete(out, i, i+1) // nothing to score a selection against
				i--
				continue
			}
		case SettingDiscretize:
			if d != nil && d.Task != datasets.Classification || spec != nil && !spec.Supports(datasets.Classification) {
				s.Choices = slices.DeleteFunc(s.Choices, func(c string) bool { return c == DiscretizeMDL }) // mdl cuts by the classes
			}
		case SettingReduce:
			if features > 0 {
				s.Max = float64(features)
			}
		case SettingStandardize:
			if spec != nil {
				habit := StandardizeNo
				if spec.Standardize {
					habit = StandardizeYes
				}
				s.Help = strings.TrimSuffix(s.Help, "the model expects") + spec.Name + " expects: " + habit
			}
		}
	}
	return out
}

// LookupSetting finds a declared setting by name.
func LookupSetting(name string) (Setting, bool) {
	for _, s := range settings {
		if s.Name == name {
			return s.clone(), true
		}
	}
	return Setting{}, false
}

// Defaults are every setting at its declared default.
func Defaults() engine.Values {
	v := make(engine.Values, len(settings))
	for _, s := range settings {
		v[s.Name] = s.Default
	}
	return v
}

// DefaultOptions are the declared defaults as Options: a stratified 80/20
// hold-out with seed 1, the model's own habit of standardizing, no
// reduction.
func DefaultOptions() Options {
	o, err := OptionsFrom(Defaults())
	if err != nil {
		panic("eval: the declared defaults do not hold: " + err.Error()) // caught by the first test run
	}
	return o
}

// OptionsFrom makes Options of settings (from Defaults, a form, flags):
// each is checked against its declaration, and one missing is at its
// default; names not declared here (an experiment's repeats) are left to
// whoever declared them. Under the test-set scheme the test file must be
// named, but opening it is the caller's (runs.Data.OpenTest into
// Options.Test: TestSource says which). The values of settings that do
// not apply are kept (a hold-out's fraction under k-fold CV), as a model
// parameter's are.
func OptionsFrom(v engine.Values) (Options, error) {
	w := Defaults()
	for _, s := range settings {
		x, ok := v[s.Name]
		if !ok {
			continue
		}
		y, err := s.Read(engine.Format(x))
		if err != nil {
			return Options{}, err
		}
		w[s.Name] = y
	}
	seed, err := ParseSeed(w.String(SettingSeed))
	if err != nil { // Read checked it
		return Options{}, err
	}
	o := Options{Split: w.Float(SettingSplit), Seed: seed, Reduce: w.Int(SettingReduce), Positive: strings.TrimSpace(w.String(SettingPositive))}
	switch w.String(SettingScheme) {
	case SchemeKFold:
		o.Folds = w.Int(SettingFolds)
	case SchemeLOO:
		o.LOO = true
	case SchemeTestSet:
		if strings.TrimSpace(w.String(SettingTest)) == "" {
			s, _ := LookupSetting(SettingTest)
			return Options{}, &SettingError{Name: s.Name, Flag: s.Flag, Reason: fmt.Sprintf("%q names no test set (%s)", w.String(SettingTest), s.Accepts())}
		}
	}
	switch scale := w.String(SettingStandardize); scale {
	case ScaleMinMax, ScaleRobust:
		o.Pipeline.Scale = scale
	default:
		o.Standardize, err = ParseStandardize(scale)
	}
	o.Pipeline.Impute = w.String(SettingImpute)
	if o.Pipeline.Impute == ImputeAuto {
		o.Pipeline.Impute = ""
	}
	if o.Pipeline.Impute == ImputeConstant {
		o.Pipeline.Fill = w.Float(SettingFill)
	}
	o.Pipeline.Indicator = w.String(SettingIndicator) == Yes
	if o.Pipeline.Discretize = w.String(SettingDiscretize); o.Pipeline.Discretize == DiscretizeNone {
		o.Pipeline.Discretize = ""
	} else if o.Pipeline.Discretize != DiscretizeMDL {
		o.Pipeline.Bins = w.Int(SettingBins)
	}
	if o.Pipeline.Encode = w.String(SettingEncoding); o.Pipeline.Encode == EncodeAuto {
		o.Pipeline.Encode = ""
	}
	if o.Pipeline.Lift = w.Int(SettingLift); o.Pipeline.Lift == 1 {
		o.Pipeline.Lift = 0
	}
	if o.Pipeline.Resample = w.String(SettingResample); o.Pipeline.Resample == ResampleNone {
		o.Pipeline.Resample = ""
	}
	if o.Pipeline.ClassWeight = w.String(SettingClassWeight); o.Pipeline.ClassWeight == ClassWeightNone {
		o.Pipeline.ClassWeight = ""
	}
	o.Pipeline.Select = strings.TrimSpace(w.String(SettingSelect))
	return o, err
}

// TestSource is the supplied test set the settings name: the test file
// under the test-set scheme, else "".
func TestSource(v engine.Values) string {
	if engine.Format(v[SettingScheme]) != SchemeTestSet {
		return ""
	}
	return strings.TrimSpace(engine.Format(v[SettingTest]))
}

// CostsSource is the cost matrix file the settings name, else "": opening
// it is the caller's (metrics.ReadCosts into Options.Costs), as a test
// set's is.
func CostsSource(v engine.Values) string {
	return strings.TrimSpace(engine.Format(v[SettingCosts]))
}

// ValuesOf gives the settings of o, to show or save: its scheme (the test
// set when Options.Test is set, its Source as the test file), and each
// setting's value; a Split of 0 is the default fraction, as Plan reads it,
// and folds below 2 (not k-fold CV) the default count.
func ValuesOf(o Options) engine.Values {
	v := Defaults()
	switch {
	case o.Test != nil:
		v[SettingScheme] = SchemeTestSet
		v[SettingTest] = o.Test.Source
	case o.LOO:
		v[SettingScheme] = SchemeLOO
	case o.Folds >= 2:
		v[SettingScheme] = SchemeKFold
	}
	if o.Split != 0 {
		v[SettingSplit] = o.Split
	}
	if o.Folds >= 2 {
		v[SettingFolds] = o.Folds
	}
	v[SettingSeed] = strconv.FormatUint(o.Seed, 10)
	v[SettingStandardize] = o.Scaling()
	v[SettingReduce] = o.Reduce
	pl := o.Pipeline
	if pl.Impute != "" {
		v[SettingImpute] = pl.Impute
	}
	if pl.Impute == ImputeConstant {
		v[SettingFill] = pl.Fill
	}
	if pl.Indicator {
		v[SettingIndicator] = Yes
	}
	if pl.Discretize != "" {
		v[SettingDiscretize] = pl.Discretize
	}
	if pl.Bins != 0 {
		v[SettingBins] = pl.Bins
	}
	if pl.Encode != "" {
		v[SettingEncoding] = pl.Encode
	}
	if pl.Lift > 1 {
		v[SettingLift] = pl.Lift
	}
	if pl.Resample != "" {
		v[SettingResample] = pl.Resample
	}
	if pl.ClassWeight != "" {
		v[SettingClassWeight] = pl.ClassWeight
	}
	v[SettingSelect] = pl.Select
	v[SettingPositive] = o.Positive
	if o.Costs != nil {
		v[SettingCosts] = o.Costs.Source
	}
	return v
}

// Args are the flags that ask a command line (tealab train) for the
// evaluation v: the flag choosing its scheme (--cv 10, --loo), then every
// other setting that applies and is away from its default (--seed 7), in
// declared order. Values missing from v are at their defaults.
func Args(v engine.Values) []string {
	def := Defaults()
	all := Defaults()
	for k, x := range v {
		all[k] = x
	}
	scheme := engine.Format(all[SettingScheme])
	var args []string
	for _, sc := range schemes {
		if sc.Name == scheme && sc.Switch() {
			args = append(args, "--"+sc.Flag)
		}
	}
	for _, s := range settings {
		if s.Flag == "" {
			continue
		}
		if ok, _ := s.AppliesTo(all); !ok {
			continue
		}
		text := engine.Format(all[s.Name])
		chooses := s.OfScheme() && scheme != engine.Format(def[SettingScheme])
		if text == engine.Format(def[s.Name]) && !chooses {
			continue
		}
		args = append(args, "--"+s.Flag, text)
	}
	return args
}

// Switch says whether a command line chooses the scheme by a switch of
// its own (--loo), no setting having its flag.
func (sc Scheme) Switch() bool {
	return !slices.ContainsFunc(settings, func(s Setting) bool { return s.Flag == sc.Flag })
}

// SeedRange is what a seed may be: any uint64.
const SeedRange = "int in [0, 2^64-1]"

// ParseSeed reads a seed: a whole number in [0, 2^64-1], which an Int
// parameter (read through a float64) cannot hold.
func ParseSeed(text string) (uint64, error) {
	v, err := strconv.ParseUint(strings.TrimSpace(text), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a whole number (%s)", text, SeedRange)
	}
	return v, nil
}

func checkSeed(text string) error {
	_, err := ParseSeed(text)
	return err
}

// canonScaling spells the other names ParseStandardize takes (yes,
// true, off...) as the scaling's choices: yes is standardize, no none.
func canonScaling(text string) string {
	t := strings.ToLower(strings.TrimSpace(text))
	if t == ScaleStandardize || t == ScaleNone {
		return t
	}
	if b, err := ParseStandardize(t); err == nil {
		switch {
		case b == nil:
			return StandardizeAuto
		case *b:
			return ScaleStandardize
		}
		return ScaleNone
	}
	return text
}
