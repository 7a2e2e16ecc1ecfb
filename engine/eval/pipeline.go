package eval

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/numfmt"
)

// The choices of the pipeline's settings as the CLI and the lab name them.
const (
	Yes = "yes"
	No  = "no"

	ImputeAuto         = "auto" // the mean, or missing values kept for a model that takes them
	ImputeMean         = "mean"
	ImputeMedian       = "median"
	ImputeMostFrequent = "most-frequent"
	ImputeConstant     = "constant"

	ScaleStandardize = "standardize"
	ScaleMinMax      = "min-max"
	ScaleRobust      = "robust"
	ScaleNone        = "none"

	DiscretizeNone      = "none"
	DiscretizeWidth     = "equal-width"
	DiscretizeFrequency = "equal-frequency"
	DiscretizeMDL       = "mdl"

	EncodeAuto    = "auto" // one-hot, or level codes for a model that takes them
	EncodeOneHot  = "one-hot"
	EncodeOrdinal = "ordinal"
)

// Pipeline is the preprocessing a person chose for a run beyond what the
// model's habits decide, each choice one of the settings' (Settings); the
// zero value chooses nothing. A recipe keeps it as it is (JSON).
type Pipeline struct {
	Impute     string  `json:"impute,omitempty"`            // "" auto; ImputeMean...
	Fill       float64 `json:"impute_value,omitempty"`      // ImputeConstant's value
	Indicator  bool    `json:"missing_indicator,omitempty"` // a missing-value column per column with one
	Scale      string  `json:"scale,omitempty"`             // ScaleMinMax or ScaleRobust; others are Options.Standardize
	Discretize string  `json:"discretize,omitempty"`        // "" none; DiscretizeWidth...
	Bins       int     `json:"bins,omitempty"`              // width and frequency: bins a feature is cut into
	Encode     string  `json:"encode,omitempty"`            // "" auto; EncodeOneHot or EncodeOrdinal
	Lift       int     `json:"lift,omitempty"`              // polynomial degree; 0 or 1 none
	// Resample (ResampleOver, ResampleUnder, ResampleSMOTE) and
	// ClassWeight (ClassWeightBalanced) change the training parts of a
	// classification, never the held-out rows; "" none.
	Resample    string `json:"resample,omitempty"`
	ClassWeight string `json:"class_weight,omitempty"`
	// Select chooses the features inside each training part (a filter
	// "info_gain:10", a wrapper "forward", "backward:3": ParseSelection);
	// "" all.
	Select string `json:"select,omitempty"`
}

// Check refuses, in one line naming it, a choice the settings do not
// offer (a recipe edited by hand: recipes are not checked when read).
func (pl Pipeline) Check() error {
	for _, c := range []struct {
		name, value string
		choices     []string
	}{
		{SettingImpute, pl.Impute, []string{ImputeMean, ImputeMedian, ImputeMostFrequent, ImputeConstant}},
		{SettingStandardize, pl.Scale, []string{ScaleMinMax, ScaleRobust}},
		{SettingDiscretize, pl.Discretize, []string{DiscretizeWidth, DiscretizeFrequency, DiscretizeMDL}},
		{SettingEncoding, pl.Encode, []string{EncodeOneHot, EncodeOrdinal}},
		{SettingResample, pl.Resample, []string{ResampleOver, ResampleUnder, ResampleSMOTE}},
		{SettingClassWeight, pl.ClassWeight, []string{ClassWeightBalanced}},
	} {
		if c.value != "" && !slices.Contains(c.choices, c.value) {
			return fmt.Errorf("%s: %q is not one of %s", c.name, c.value, strings.Join(c.choices, ", "))
		}
	}
	if math.IsNaN(pl.Fill) || math.IsInf(pl.Fill, 0) {
		return fmt.Errorf("%s: %v is not a finite number", SettingFill, pl.Fill)
	}
	if pl.Bins != 0 && (pl.Bins < 2 || pl.Bins > 1000) {
		return fmt.Errorf("%s: %d is out of range [2, 1000]", SettingBins, pl.Bins)
	}
	if pl.Lift < 0 || pl.Lift > 10 {
		return fmt.Errorf("%s: %d is out of range [1, 10]", SettingLift, pl.Lift)
	}
	if _, err := ParseSelection(pl.Select); err != nil {
		return fmt.Errorf("%s: %w", SettingSelect, err)
	}
	return nil
}

// Scaling names the scaling o asks for: auto, standardize, min-max,
// robust or none.
func (o Options) Scaling() string {
	if o.Pipeline.Scale != "" {
		return o.Pipeline.Scale
	}
	switch {
	case o.Standardize == nil:
		return StandardizeAuto
	case *o.Standardize:
		return ScaleStandardize
	}
	return ScaleNone
}

// prepOptions are the datasets.PrepOptions of a run's preprocessing, for
// training rows whose targets are y: the model's habits (spec.Input,
// standardising or not), then what the person chose.
func (rn *runner) prepOptions(y []float64) (datasets.PrepOptions, error) {
	in, pl := rn.spec.Input, rn.opt.Pipeline
	opt := datasets.PrepOptions{Standardize: rn.std, KeepNominal: in.Nominal, KeepMissing: in.Missing,
		KeepConstant: in.Constant, Reduce: rn.opt.Reduce, Degree: pl.Lift, Indicator: pl.Indicator}
	if opt.Reduce > 0 || opt.Degree >= 2 {
		// Principal components and products are numeric and complete:
		// nominal columns are encoded and missing values imputed first,
		// whatever the model would take raw.
		opt.KeepNominal, opt.KeepMissing = false, false
	}
	if pl.Impute != "" {
		opt.Impute, opt.ForceImpute = strings.ReplaceAll(pl.Impute, "-", "_"), true
		opt.ImputeValue = pl.Fill
	}
	switch pl.Scale {
	case ScaleMinMax:
		opt.Scale = datasets.ScaleMinMax
	case ScaleRobust:
		opt.Scale = datasets.ScaleRobust
	}
	switch pl.Encode {
	case EncodeOneHot:
		opt.KeepNominal = false
	case EncodeOrdinal:
		opt.Ordinal = true
	}
	switch pl.Discretize {
	case "":
	case DiscretizeWidth, DiscretizeFrequency:
		opt.Discretize, opt.Bins = datasets.BinWidth, pl.Bins
		if pl.Discretize == DiscretizeFrequency {
			opt.Discretize = datasets.BinFrequency
		}
		if opt.Bins == 0 {
			opt.Bins = 10
		}
	case DiscretizeMDL:
		if rn.task != datasets.Classification {
			return opt, engine.Limitf("discretize: mdl cuts features by the classes, and %s has none to learn (%s): choose %s or %s", rn.d.Name, rn.task, DiscretizeWidth, DiscretizeFrequency)
		}
		opt.Discretize, opt.Y, opt.Classes = datasets.BinMDL, y, len(rn.d.Classes)
	default:
		return opt, fmt.Errorf("discretize: %q is not one of %s, %s, %s", pl.Discretize, DiscretizeWidth, DiscretizeFrequency, DiscretizeMDL)
	}
	return opt, nil
}

// pipelineNote says what a person chose of the pipeline, for
// Result.Eval: ", missing values filled with the median, min-max scaled".
func pipelineNote(o Options) string {
	pl, note := o.Pipeline, ""
	switch pl.Impute {
	case "":
	case ImputeConstant:
		note += ", missing values filled with " + numfmt.Sig(pl.Fill, 6)
	default:
		note += ", missing values filled with the " + strings.ReplaceAll(pl.Impute, "-", " ") + " value"
	}
	if pl.Indicator {
		note += ", missing-value indicators"
	}
	switch pl.Discretize {
	case DiscretizeWidth, DiscretizeFrequency:
		note += fmt.Sprintf(", numeric features cut into %d %s bins", max(pl.Bins, 2), pl.Discretize)
	case DiscretizeMDL:
		note += ", numeric features cut by MDL"
	}
	switch pl.Encode {
	case EncodeOneHot:
		note += ", nominal features one-hot"
	case EncodeOrdinal:
		note += ", nominal features as ordinal codes"
	}
	if pl.Lift >= 2 {
		note += fmt.Sprintf(", lifted to every product of up to %d features", pl.Lift)
	}
	switch pl.Scale {
	case ScaleMinMax:
		note += ", numeric features min-max scaled"
	case ScaleRobust:
		note += ", numeric features robustly scaled"
	}
	switch pl.Resample {
	case ResampleOver:
		note += ", training parts randomly over-sampled"
	case ResampleUnder:
		note += ", training parts randomly under-sampled"
	case ResampleSMOTE:
		note += fmt.Sprintf(", training parts over-sampled by SMOTE (k=%d)", SMOTENeighbors)
	}
	if pl.ClassWeight == ClassWeightBalanced {
		note += ", balanced class weights"
	}
	if sel, err := ParseSelection(pl.Select); err == nil && sel.Method != "" {
		switch {
		case sel.Method == SelectForward || sel.Method == SelectBackward:
			note += fmt.Sprintf(", features chosen by %s selection in each training part (inner %d-fold CV)", sel.Method, InnerFolds)
		default:
			note += fmt.Sprintf(", the top %d features by %s in each training part", sel.K, sel.Method)
		}
	}
	return note
}
