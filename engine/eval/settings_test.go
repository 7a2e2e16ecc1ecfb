package eval

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

// Every declared default is a value of its setting, every When names a
// choice of the scheme, and the defaults make DefaultOptions.
func TestSettingsDeclaration(t *testing.T) {
	seen := map[string]bool{}
	flags := map[string]bool{}
	scheme, _ := LookupSetting(SettingScheme)
	for _, s := range Settings() {
		if seen[s.Name] || (s.Flag != "" && flags[s.Flag]) {
			t.Errorf("%s (--%s) declared twice", s.Name, s.Flag)
		}
		seen[s.Name], flags[s.Flag] = true, true
		if s.Help == "" || strings.Contains(s.Help, "\n") {
			t.Errorf("%s: help %q is not one line", s.Name, s.Help)
		}
		if x, err := s.Read(engine.Format(s.Default)); err != nil || engine.Format(x) != engine.Format(s.Default) {
			t.Errorf("%s: default %v reads as %v, %v", s.Name, s.Default, x, err)
		}
		if s.When != nil && s.When.Param != SettingScheme {
			// A pipeline step's detail applies under choices of its step.
			step, ok := LookupSetting(s.When.Param)
			if !ok || step.Kind != engine.Choice || len(s.When.In) == 0 || slices.ContainsFunc(s.When.In, func(c string) bool { return !slices.Contains(step.Choices, c) }) {
				t.Errorf("%s: applies when %s, not choices of a declared setting", s.Name, s.When)
			}
		} else if s.When != nil {
			if len(s.When.In) != 1 || !slices.Contains(scheme.Choices, s.When.In[0]) {
				t.Errorf("%s: applies when %s, not one scheme", s.Name, s.When)
			}
			if s.Flag == "" {
				t.Errorf("%s applies under one scheme but has no flag to choose it", s.Name)
			}
		}
		if (s.Flag == "") != (s.Name == SettingScheme) {
			t.Errorf("%s: flag %q", s.Name, s.Flag)
		}
	}
	var names []string
	for _, sc := range Schemes() {
		names = append(names, sc.Name)
		if sc.Flag == "" || (sc.Switch() && sc.Help == "") {
			t.Errorf("scheme %s: flag %q, help %q", sc.Name, sc.Flag, sc.Help)
		}
		if sc.Switch() && flags[sc.Flag] {
			t.Errorf("scheme %s: its switch --%s is a setting's flag", sc.Name, sc.Flag)
		}
	}
	if !slices.Equal(names, scheme.Choices) {
		t.Errorf("schemes %v, the setting offers %v", names, scheme.Choices)
	}
	def := Defaults()
	o := DefaultOptions()
	if o.Split != def.Float(SettingSplit) || o.Seed != 1 || o.Folds != 0 || o.LOO || o.Reduce != 0 || o.Standardize != nil {
		t.Errorf("DefaultOptions %+v, declared %v", o, def)
	}
	// The zero Options split as the declared default does.
	d := blobs(100, 2, 1)
	_, want, _ := Plan(d, o)
	if _, got, _ := Plan(d, Options{Seed: 1}); got != want || !strings.Contains(want, "80/20 hold-out") {
		t.Errorf("zero Options: %q, DefaultOptions: %q", got, want)
	}
}

// A value a setting does not take is refused with the setting's name and
// range, in the model parameters' wording.
func TestSettingErrors(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{SettingSplit, "1.5", `test fraction: "1.5" is out of range (float in [0.001, 0.999])`},
		{SettingSplit, "0", `test fraction: "0" is out of range (float in [0.001, 0.999])`},
		{SettingSplit, "NaN", `test fraction: "NaN" is not a number (float in [0.001, 0.999])`},
		{SettingFolds, "1", `folds: "1" is out of range (int in [2, +inf])`},
		{SettingFolds, "2.5", `folds: "2.5" is not a whole number (int in [2, +inf])`},
		{SettingReduce, "-1", `reduce first: "-1" is out of range (int in [0, +inf])`},
		{SettingSeed, "-1", `seed: "-1" is not a whole number (int in [0, 2^64-1])`},
		{SettingStandardize, "maybe", `scaling: "maybe" is not one of auto, standardize, min-max, robust, none`},
		{SettingScheme, "bootstrap", `evaluation: "bootstrap" is not one of hold-out, k-fold CV, leave-one-out, test set`},
	} {
		s, ok := LookupSetting(c.name)
		if !ok {
			t.Fatalf("no setting %q", c.name)
		}
		_, err := s.Read(c.text)
		var se *SettingError
		if !errors.As(err, &se) || err.Error() != c.want || se.Flag != s.Flag || strings.HasPrefix(se.Reason, "parameter") {
			t.Errorf("%s %q: %v, want %s", c.name, c.text, err, c.want)
		}
	}
	s, _ := LookupSetting(SettingSeed)
	if x, err := s.Read("18446744073709551615"); err != nil || x != "18446744073709551615" {
		t.Errorf("the largest seed: %v, %v", x, err)
	}
	s, _ = LookupSetting(SettingStandardize)
	if x, err := s.Read(" On "); err != nil || x != ScaleStandardize {
		t.Errorf("standardize on: %v, %v", x, err)
	}
	// A value typed by code is checked too.
	if _, err := OptionsFrom(engine.Values{SettingSplit: 1.5}); err == nil || !strings.Contains(err.Error(), "test fraction") {
		t.Errorf("OptionsFrom split 1.5: %v", err)
	}
	if _, err := OptionsFrom(engine.Values{SettingScheme: SchemeTestSet}); err == nil || !strings.Contains(err.Error(), "test file") {
		t.Errorf("OptionsFrom a test set with no file: %v", err)
	}
}

// Settings make Options and Options give the settings back, and the
// command line that asks for them.
func TestSettingsRoundTrip(t *testing.T) {
	def := DefaultOptions()
	off := false
	for _, c := range []struct {
		v    engine.Values
		want Options
		args string
	}{
		{engine.Values{}, def, ""},
		{engine.Values{SettingScheme: SchemeKFold, SettingFolds: 3, SettingSeed: "4", SettingStandardize: "no", SettingReduce: 2},
			Options{Split: def.Split, Folds: 3, Seed: 4, Reduce: 2, Standardize: &off}, "--cv 3 --seed 4 --scale none --reduce 2"},
		{engine.Values{SettingImpute: ImputeConstant, SettingFill: -1.5, SettingIndicator: Yes, SettingStandardize: ScaleRobust,
			SettingDiscretize: DiscretizeFrequency, SettingBins: 4, SettingEncoding: EncodeOrdinal, SettingLift: 2},
			Options{Split: def.Split, Seed: 1, Pipeline: Pipeline{Impute: ImputeConstant, Fill: -1.5, Indicator: true, Scale: ScaleRobust,
				Discretize: DiscretizeFrequency, Bins: 4, Encode: EncodeOrdinal, Lift: 2}},
			"--impute constant --impute-value -1.5 --missing-indicator yes --scale robust --discretize equal-frequency --bins 4 --encode ordinal --lift 2"},
		{engine.Values{SettingDiscretize: DiscretizeMDL, SettingBins: 4, SettingImpute: ImputeMedian, SettingFill: 3},
			Options{Split: def.Split, Seed: 1, Pipeline: Pipeline{Impute: ImputeMedian, Discretize: DiscretizeMDL}}, "--impute median --discretize mdl"},
		{engine.Values{SettingScheme: SchemeKFold}, Options{Split: def.Split, Folds: 5, Seed: 1}, "--cv 5"},
		{engine.Values{SettingScheme: SchemeLOO, SettingFolds: 7}, Options{Split: def.Split, LOO: true, Seed: 1}, "--loo"},
		{engine.Values{SettingSplit: 0.3, SettingSeed: "0"}, Options{Split: 0.3}, "--split 0.3 --seed 0"},
	} {
		o, err := OptionsFrom(c.v)
		if err != nil || !reflect.DeepEqual(o, c.want) {
			t.Errorf("%v: %+v, %v; want %+v", c.v, o, err, c.want)
			continue
		}
		back, err := OptionsFrom(ValuesOf(o))
		if err != nil || !reflect.DeepEqual(back, o) {
			t.Errorf("%v: back %+v, %v", c.v, back, err)
		}
		if got := strings.Join(Args(ValuesOf(o)), " "); got != c.args {
			t.Errorf("%v: args %q, want %q", c.v, got, c.args)
		}
	}
	test := &datasets.Dataset{Source: "held.csv"}
	v := ValuesOf(Options{Test: test, Seed: 1})
	if TestSource(v) != "held.csv" || strings.Join(Args(v), " ") != "--test held.csv" {
		t.Errorf("test set: %v, args %v", v, Args(v))
	}
	if o, err := OptionsFrom(v); err != nil || o.Test != nil || o.Folds != 0 || o.LOO {
		t.Errorf("test set: %+v, %v", o, err)
	}
	if TestSource(ValuesOf(DefaultOptions())) != "" {
		t.Error("a hold-out names a test set")
	}
}

// SettingsFor bounds the folds by the rows and the components by the
// features, and says what auto standardizing does for the model.
func TestSettingsFor(t *testing.T) {
	spec := &engine.Spec{Name: "knn", Standardize: true}
	tab, err := datasets.Open("iris")
	if err != nil {
		t.Fatal(err)
	}
	d, err := tab.Dataset("", datasets.Auto)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range SettingsFor(spec, d) {
		switch s.Name {
		case SettingFolds:
			if s.Max != 150 {
				t.Errorf("folds max %v", s.Max)
			}
		case SettingReduce:
			if s.Max != 4 {
				t.Errorf("reduce max %v", s.Max)
			}
		case SettingStandardize:
			if !strings.HasSuffix(s.Help, "auto does what knn expects: yes") {
				t.Errorf("standardize help %q", s.Help)
			}
		}
	}
	// The declaration is not changed by it.
	if s, _ := LookupSetting(SettingFolds); s.Max == 150 {
		t.Error("SettingsFor changed the declaration")
	}
}

// A form offers the positive class as a choice of the data's two classes,
// the rarer chosen; data of more classes, or a model that does not
// classify, get no such field.
func TestSettingsForOfferThePositiveClass(t *testing.T) {
	open := func(name string) *datasets.Dataset {
		tab, err := datasets.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		d, err := tab.Dataset("", datasets.Auto)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	find := func(ss []Setting) *Setting {
		for i := range ss {
			if ss[i].Name == SettingPositive {
				return &ss[i]
			}
		}
		return nil
	}
	cancer := open("breast_cancer")
	p := find(SettingsFor(&engine.Spec{Name: "logistic", Tasks: []engine.Task{datasets.Classification}}, cancer))
	if p == nil || p.Kind != engine.Choice || !slices.Equal(p.Choices, cancer.Classes) || p.Default != "malignant" {
		t.Errorf("breast_cancer's positive class: %+v", p)
	}
	if p := find(SettingsFor(&engine.Spec{Name: "kmeans", Tasks: []engine.Task{datasets.Clustering}}, cancer)); p != nil {
		t.Errorf("a clustering is offered a positive class: %+v", p)
	}
	if p := find(SettingsFor(nil, open("iris"))); p != nil {
		t.Errorf("three classes are offered a positive class: %+v", p)
	}
}
