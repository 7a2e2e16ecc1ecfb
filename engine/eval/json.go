package eval

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/tealab/tealab/advice"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/metrics"
	"github.com/tealab/tealab/numfmt"
)

// encoding/json fails on NaN and ±Inf, and a result holds NaN by design
// (validation not computed on a step, a metric undefined on a fold). Point
// and Result marshal every non-finite number as null and read null back as
// NaN, so that json.MarshalIndent(result) never fails and a saved result
// loads back with the same numbers.

type jfloat = numfmt.Float

func jmap(m map[string]float64) map[string]jfloat {
	if m == nil {
		return nil
	}
	out := make(map[string]jfloat, len(m))
	for k, v := range m {
		out[k] = jfloat(v)
	}
	return out
}

func unjmap(m map[string]jfloat) map[string]float64 {
	if m == nil {
		return nil
	}
	out := make(map[string]float64, len(m))
	for k, v := range m {
		out[k] = float64(v)
	}
	return out
}

type pointJSON struct {
	Step      int               `json:"step"`
	TrainLoss jfloat            `json:"train_loss"`
	ValLoss   jfloat            `json:"val_loss"`
	ValError  jfloat            `json:"val_error"`
	Extra     map[string]jfloat `json:"extra,omitempty"`
}

// MarshalJSON writes NaN and ±Inf as null, and the detail's figures
// under "extra".
func (p Point) MarshalJSON() ([]byte, error) {
	return json.Marshal(pointJSON{p.Step, jfloat(p.TrainLoss), jfloat(p.ValLoss), jfloat(p.ValError), figureMap(p.Detail)})
}

// UnmarshalJSON reads null as NaN, and "extra" as engine.Figures in the
// order of their names.
func (p *Point) UnmarshalJSON(b []byte) error {
	var v pointJSON
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*p = Point{v.Step, float64(v.TrainLoss), float64(v.ValLoss), float64(v.ValError), mapFigures(v.Extra)}
	return nil
}

// figureMap is d's figures by name, for JSON; nil when it has none.
func figureMap(d engine.Detail) map[string]jfloat {
	figs := engine.FiguresOf(d)
	if len(figs) == 0 {
		return nil
	}
	out := make(map[string]jfloat, len(figs))
	for _, f := range figs {
		out[f.Name] = jfloat(f.Value)
	}
	return out
}

// mapFigures is the Detail of figures read back from JSON, in the order
// of their names; nil when there are none.
func mapFigures(m map[string]jfloat) engine.Detail {
	if len(m) == 0 {
		return nil
	}
	figs := make(engine.Figures, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		figs = append(figs, engine.Figure{Name: k, Value: float64(m[k])})
	}
	return figs
}

// resultHead is the JSON of a result before what the model learned.
type resultHead struct {
	Task          string                `json:"task"`
	Dataset       string                `json:"dataset"`
	Model         string                `json:"model"`
	Params        map[string]any        `json:"params"`
	Eval          string                `json:"evaluation"`
	Seed          uint64                `json:"seed"`
	Rows          int                   `json:"rows"`
	Features      int                   `json:"features"`
	Metrics       map[string]jfloat     `json:"metrics"`
	Std           map[string]jfloat     `json:"std,omitempty"`
	Folds         []map[string]jfloat   `json:"folds,omitempty"`
	Baseline      map[string]jfloat     `json:"baseline"`
	Confusion     *metrics.Confusion    `json:"confusion,omitempty"`
	Classes       []metrics.ClassReport `json:"per_class,omitempty"`
	Positive      string                `json:"positive,omitempty"`
	Threshold     *float64              `json:"threshold,omitempty"`
	Costs         *metrics.Costs        `json:"costs,omitempty"`
	ROC           []metrics.ROC         `json:"roc,omitempty"`
	PR            []metrics.PR          `json:"pr_curve,omitempty"`
	Calibration   []metrics.Calibration `json:"calibration,omitempty"`
	Lift          []metrics.Lift        `json:"lift,omitempty"`
	FoldCurves    []metrics.Curves      `json:"fold_curves,omitempty"`
	History       []Point               `json:"history"`
	FoldHistories [][]Point             `json:"fold_histories,omitempty"`
}

// resultTail is the JSON of a result after what the model learned.
type resultTail struct {
	Parts        []Part   `json:"training_parts,omitempty"`
	Warnings     []string `json:"warnings"`
	WarningFolds []int    `json:"warning_folds,omitempty"` // per warning: the folds that raised it
	FittedOn     string   `json:"shown_model,omitempty"`
	Cancelled    bool     `json:"cancelled,omitempty"`
	StoppedEarly string   `json:"stopped_early,omitempty"`
	ScoredRows   int      `json:"scored_rows"` // the rows the metrics were computed on
	FitSecs      jfloat   `json:"fit_seconds"`
	ScoreSecs    jfloat   `json:"score_seconds"`
	WallSecs     jfloat   `json:"seconds"`
}

// MarshalJSON writes the result's fields, then what the shown model
// learned, each capability under its name (coefficients, tree, rules,
// linkage...), then the warnings. NaN and ±Inf are null.
func (r Result) MarshalJSON() ([]byte, error) {
	var folds []map[string]jfloat
	for _, f := range r.Folds {
		folds = append(folds, jmap(f))
	}
	var params map[string]any
	if r.Params != nil {
		params = make(map[string]any, len(r.Params))
		for k, v := range r.Params {
			if f, ok := v.(float64); ok {
				v = jfloat(f)
			}
			params[k] = v
		}
	}
	history := r.History
	if history == nil {
		history = []Point{}
	}
	head, err := json.Marshal(resultHead{
		r.Task, r.Dataset, r.Model, params, r.Eval, r.Seed, r.Rows, r.Features,
		jmap(r.Metrics), jmap(r.Std), folds, jmap(r.Baseline),
		r.Confusion, r.Classes, r.Positive, r.Threshold, r.Costs, r.ROC, r.PR, r.Calibration, r.Lift, r.FoldCurves, history, r.FoldHistories,
	})
	if err != nil {
		return nil, err
	}
	warnings := []string{}
	for _, w := range r.Warnings {
		warnings = append(warnings, w.String())
	}
	tail, err := json.Marshal(resultTail{r.Parts, warnings, r.WarningFolds, r.FittedOn, r.Cancelled, r.StoppedEarly, r.ScoredRows(),
		jfloat(r.FitSecs), jfloat(r.ScoreSecs), jfloat(r.WallSecs)})
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.Write(head[:len(head)-1])
	for _, name := range learnedOrder(r.Learned) {
		raw, err := json.Marshal(r.Learned[name])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		b.WriteString("," + strconv.Quote(name) + ":")
		b.Write(raw)
	}
	b.WriteByte(',')
	b.Write(tail[1:])
	return b.Bytes(), nil
}

// unsaid are warnings read back from their text: their remedies are in
// the words they were saved with.
func unsaid(texts []string) []advice.Warning {
	var out []advice.Warning
	for _, t := range texts {
		out = append(out, advice.Warning{Text: t})
	}
	return out
}

// learnedOrder lists the keys of learned: defined capabilities in their
// order, then any others sorted.
func learnedOrder(learned map[string]any) []string {
	var names, rest []string
	for _, c := range engine.Capabilities() {
		if _, ok := learned[c.Name]; ok {
			names = append(names, c.Name)
		}
	}
	for k := range learned {
		if !slices.Contains(names, k) {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	return append(names, rest...)
}

// UnmarshalJSON reads what MarshalJSON writes: the numbers as they were
// (null as NaN), the parameters typed by the model's spec when the model is
// registered, and what the model learned decoded by its capability. The
// fitted model itself, its preprocessing and the embedding are not saved.
func (r *Result) UnmarshalJSON(b []byte) error {
	var head struct {
		resultHead
		Params map[string]json.RawMessage `json:"params"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return err
	}
	var tail resultTail
	if err := json.Unmarshal(b, &tail); err != nil {
		return err
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		return err
	}
	h := head.resultHead
	*r = Result{
		Task: h.Task, Dataset: h.Dataset, Model: h.Model, Eval: h.Eval, Seed: h.Seed, Rows: h.Rows, Features: h.Features,
		Metrics: unjmap(h.Metrics), Std: unjmap(h.Std), Baseline: unjmap(h.Baseline),
		Confusion: h.Confusion, Classes: h.Classes, Positive: h.Positive, Threshold: h.Threshold, Costs: h.Costs, ROC: h.ROC, PR: h.PR, Calibration: h.Calibration, Lift: h.Lift,
		FoldCurves: h.FoldCurves, History: h.History, FoldHistories: h.FoldHistories,
		Parts: tail.Parts, Warnings: unsaid(tail.Warnings), WarningFolds: tail.WarningFolds, FittedOn: tail.FittedOn, Cancelled: tail.Cancelled, StoppedEarly: tail.StoppedEarly,
		FitSecs: float64(tail.FitSecs), ScoreSecs: float64(tail.ScoreSecs), WallSecs: float64(tail.WallSecs),
		scoredRows: tail.ScoredRows,
	}
	for _, f := range h.Folds {
		r.Folds = append(r.Folds, unjmap(f))
	}
	params, err := decodeParams(h.Model, head.Params)
	if err != nil {
		return err
	}
	r.Params = params
	for _, c := range engine.Capabilities() {
		raw, ok := all[c.Name]
		if !ok {
			continue
		}
		v, err := c.Decode(raw)
		if err != nil {
			return err
		}
		if r.Learned == nil {
			r.Learned = map[string]any{}
		}
		r.Learned[c.Name] = v
	}
	return nil
}

// decodeParams types saved parameters by the model's spec (an int stays an
// int); for a model that is not registered they are kept as JSON gave them.
func decodeParams(model string, raw map[string]json.RawMessage) (engine.Values, error) {
	if raw == nil {
		return nil, nil
	}
	settings := make(map[string]string, len(raw))
	for k, v := range raw {
		var s string
		var list []json.RawMessage
		switch {
		case json.Unmarshal(v, &s) == nil:
			settings[k] = s
		case json.Unmarshal(v, &list) == nil: // a list parameter, as --param writes it: 64,32
			parts := make([]string, len(list))
			for i, x := range list {
				parts[i] = string(x)
			}
			settings[k] = strings.Join(parts, ",")
		default:
			settings[k] = string(v)
		}
	}
	spec, err := engine.Lookup(model)
	if err != nil {
		out := engine.Values{}
		for k, v := range raw {
			var x any
			if err := json.Unmarshal(v, &x); err != nil {
				return nil, fmt.Errorf("params: %s: %w", k, err)
			}
			out[k] = x
		}
		return out, nil
	}
	v, err := spec.Parse(settings)
	if err != nil {
		return nil, fmt.Errorf("params: %w", err)
	}
	return v, nil
}
