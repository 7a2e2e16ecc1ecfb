// Package rank ranks the features of a dataset by how much they tell of
// its target: information gain, gain ratio and chi-squared as Weka's
// attribute evaluators compute them (numeric features discretised by
// Fayyad & Irani's MDL method), mutual information as scikit-learn's
// mutual_info_classif estimates it, ReliefF as Weka weighs it, and the
// permutation importance of any registered model on held-out rows. Each
// method says which tasks and columns it takes and refuses others in one
// line; a column that is constant or all missing ranks last with a note.
package rank

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
)

// Method is one way of ranking features.
type Method struct {
	Name  string // for --method and --json: "info_gain"
	Title string // for people: "information gain"
	Short string // for a narrow column: "InfoGain"
	// Tasks are the targets it ranks against.
	Tasks []datasets.Task
	// Numeric says how it handles numeric features (and missing values).
	Numeric string
	// Source names what it follows, for a reader to check it against.
	Source string
	// Model says it needs a model (Options.Model): permutation.
	Model bool
	// Slow methods are cancelled through the context and tick Progress,
	// counting Steps ("rows").
	Slow  bool
	Steps string
	// Unit is what a score measures: "bits", "nats", "χ²", "weight"...
	Unit string
}

var methods = []Method{
	{Name: "info_gain", Title: "information gain", Short: "InfoGain", Unit: "bits",
		Tasks:   []datasets.Task{datasets.Classification},
		Numeric: "nominal features by their levels; numeric features cut into intervals by Fayyad & Irani's MDL method, supervised by the class (as Weka's Discretize); a missing value's row shared out over the values in proportion to their counts",
		Source:  "Weka's InfoGainAttributeEval"},
	{Name: "gain_ratio", Title: "gain ratio", Short: "GainRatio", Unit: "ratio",
		Tasks:   []datasets.Task{datasets.Classification},
		Numeric: "numeric features cut by MDL as for information gain; the gain over the entropy of the intervals",
		Source:  "Weka's GainRatioAttributeEval"},
	{Name: "chi2", Title: "chi-squared", Short: "χ²", Unit: "χ²",
		Tasks:   []datasets.Task{datasets.Classification},
		Numeric: "numeric features cut by MDL as for information gain; Pearson's χ² of the intervals against the classes, no Yates correction",
		Source:  "Weka's ChiSquaredAttributeEval"},
	{Name: "mutual_info", Title: "mutual information", Short: "MI", Unit: "nats",
		Tasks:   []datasets.Task{datasets.Classification},
		Numeric: "nominal features: the exact discrete mutual information; numeric: the k-nearest-neighbour estimate (k=3, unit variance, a little seeded noise against ties); rows missing the feature left out",
		Source:  "scikit-learn's mutual_info_classif"},
	{Name: "relieff", Title: "ReliefF", Short: "ReliefF", Unit: "weight", Slow: true, Steps: "rows",
		Tasks:   []datasets.Task{datasets.Classification, datasets.Regression},
		Numeric: "every row against its 10 nearest hits and misses; a numeric difference scaled by the feature's range, a nominal one 0 or 1; a regression target weighed as RReliefF",
		Source:  "Weka's ReliefFAttributeEval with its defaults: 10 neighbours, every row sampled, no distance weighting"},
	{Name: "permutation", Title: "permutation importance", Short: "Perm", Unit: "drop", Slow: true, Model: true, Steps: "fits and features",
		Tasks:   []datasets.Task{datasets.Classification, datasets.Regression},
		Numeric: "features taken as the model takes them (its preprocessing fitted on each training part); each shuffled on the held-out rows, the drop of the primary metric averaged over repeats",
		Source:  "scikit-learn's permutation_importance"},
}

// Methods lists every method, in the order a report shows them.
func Methods() []Method { return slices.Clone(methods) }

// NeedModel says which of the methods named needs a model; "" none.
func NeedModel(names []string) string {
	for _, n := range names {
		if m, err := Lookup(n); err == nil && m.Model {
			return n
		}
	}
	return ""
}

// Names are the methods' names.
func Names() []string {
	var out []string
	for _, m := range methods {
		out = append(out, m.Name)
	}
	return out
}

// Lookup finds a method by name.
func Lookup(name string) (Method, error) {
	for _, m := range methods {
		if m.Name == name {
			return m, nil
		}
	}
	return Method{}, fmt.Errorf("unknown ranking method %q (valid: %s)", name, strings.Join(Names(), ", "))
}

// Options say how to rank.
type Options struct {
	// Model and Values are the model permutation importance scores (nil:
	// permutation refuses); Eval how its held-out rows are drawn and the
	// seed of every random choice (the shuffles, the noise of mutual
	// information).
	Model  *engine.Spec
	Values engine.Values
	Eval   eval.Options
	// Repeats is how often each feature is shuffled (0: DefaultRepeats).
	Repeats int
	// Progress, when set, hears how far a slow method has got.
	Progress func(Progress)
}

// Progress is how far one method has got: Done of Total units (rows for
// ReliefF, folds then features for permutation).
type Progress struct {
	Method      string
	Done, Total int
}

// Ranking is one method's scores of the features.
type Ranking struct {
	Method   string    `json:"method"`
	Title    string    `json:"title"`
	Unit     string    `json:"unit"`
	Numeric  string    `json:"numeric"` // how numeric features were handled
	Features []string  `json:"features"`
	Scores   []float64 `json:"scores"`        // one per feature, in the data's order; never NaN
	Std      []float64 `json:"std,omitempty"` // permutation: the spread over repeats
	Ranks    []int     `json:"ranks"`         // 1 = the most telling
	// Notes say why a feature ranks where it does when that is not its
	// score: "constant", "all missing" (""  none).
	Notes []string `json:"notes"`
	// Eval and Metric: the held-out rows and the score permutation
	// importance measured; "" for the filters.
	Eval   string `json:"eval,omitempty"`
	Metric string `json:"metric,omitempty"`
}

// Order lists the features' indices from rank 1 down.
func (r *Ranking) Order() []int {
	out := make([]int, len(r.Ranks))
	for j, k := range r.Ranks {
		out[k-1] = j
	}
	return out
}

// Check says, in one line naming the culprit, why the methods cannot
// rank d's features; nil when they all can.
func Check(d *datasets.Dataset, names []string, opt Options) error {
	if d == nil || d.X == nil {
		return errors.New("rank: no data")
	}
	if len(names) == 0 {
		return fmt.Errorf("rank: no method (valid: %s)", strings.Join(Names(), ", "))
	}
	if len(d.Features) == 0 {
		return fmt.Errorf("rank: %s has no features to rank", d.Name)
	}
	seen := map[string]bool{}
	for _, name := range names {
		m, err := Lookup(name)
		if err != nil {
			return err
		}
		if seen[name] {
			return fmt.Errorf("rank: method %s is named twice", name)
		}
		seen[name] = true
		if !slices.Contains(m.Tasks, d.Task) {
			return fmt.Errorf("%s ranks features against %s; %s of %s is %s: %s", m.Name, taskWords(m.Tasks), targetName(d), d.Name, taskNoun(d.Task), alternatives(d.Task))
		}
		n := d.Rows()
		if n < 2 {
			return fmt.Errorf("%s needs at least 2 rows; %s has %d", m.Name, d.Name, n)
		}
		if m.Model {
			if opt.Model == nil {
				return fmt.Errorf("%s needs a model, fitted on the training rows, whose held-out score the shuffles lower", m.Name)
			}
			if !opt.Model.Supports(d.Task) {
				return fmt.Errorf("%s: model %s does not do %s", m.Name, opt.Model.Name, d.Task)
			}
		}
	}
	return nil
}

func targetName(d *datasets.Dataset) string {
	if d.Target != nil {
		return "the target " + d.Target.Name
	}
	return "the target"
}

func taskNoun(t datasets.Task) string {
	switch t {
	case datasets.Regression:
		return "numeric (regression)"
	case datasets.Classification:
		return "classes"
	}
	return "absent (" + t.String() + ")"
}

func taskWords(ts []datasets.Task) string {
	var w []string
	for _, t := range ts {
		switch t {
		case datasets.Classification:
			w = append(w, "classes")
		case datasets.Regression:
			w = append(w, "a numeric target")
		}
	}
	return strings.Join(w, " or ")
}

// alternatives names the methods that take a task.
func alternatives(t datasets.Task) string {
	var ok []string
	for _, m := range methods {
		if slices.Contains(m.Tasks, t) {
			ok = append(ok, m.Name)
		}
	}
	if len(ok) == 0 {
		return "choose a target"
	}
	return "use " + strings.Join(ok, " or ")
}

// Rank scores d's features by each method named, in that order. A slow
// method stops when ctx is cancelled, returning ctx's error.
func Rank(ctx context.Context, d *datasets.Dataset, names []string, opt Options) ([]Ranking, error) {
	if err := Check(d, names, opt); err != nil {
		return nil, err
	}
	dead := deadColumns(d)
	var out []Ranking
	for _, name := range names {
		m, _ := Lookup(name)
		r, err := rankOne(ctx, d, m, opt, dead)
		if err != nil {
			return out, err
		}
		out = append(out, r)
	}
	return out, nil
}

func rankOne(ctx context.Context, d *datasets.Dataset, m Method, opt Options, dead []string) (Ranking, error) {
	p := len(d.Features)
	r := Ranking{Method: m.Name, Title: m.Title, Unit: m.Unit, Numeric: m.Numeric,
		Features: d.FeatureNames(), Scores: make([]float64, p), Notes: slices.Clone(dead)}
	tick := func(done, total int) error {
		if opt.Progress != nil {
			opt.Progress(Progress{Method: m.Name, Done: done, Total: total})
		}
		return ctx.Err()
	}
	var err error
	switch m.Name {
	case "info_gain", "gain_ratio", "chi2":
		f := map[string]func([][]float64) float64{"info_gain": infoGain, "gain_ratio": gainRatio, "chi2": chiSquared}[m.Name]
		for j := range p {
			if dead[j] == "" {
				r.Scores[j] = f(table(d, j))
			}
		}
	case "mutual_info":
		rng := rand.New(rand.NewPCG(opt.Eval.Seed, 0x6d69))
		for j, c := range d.Features {
			if dead[j] != "" {
				continue
			}
			if c.Kind == datasets.Nominal {
				r.Scores[j] = discreteMI(column(d, j), d.Y, len(c.Levels), len(d.Classes))
			} else {
				r.Scores[j] = continuousMI(column(d, j), d.Y, len(d.Classes), rng)
			}
		}
	case "relieff":
		r.Scores, err = reliefF(ctx, d, tick)
	case "permutation":
		// A dead column tells the model nothing and some models refuse
		// it: the model is fitted without it.
		live, keep := liveColumns(d, dead)
		var scores, std []float64
		r.Std = make([]float64, p)
		if len(keep) == 0 {
			break
		}
		scores, std, r.Eval, r.Metric, err = permutation(ctx, live, opt, tick)
		if err == nil {
			for k, j := range keep {
				r.Scores[j], r.Std[j] = scores[k], std[k]
			}
		}
	}
	if err != nil {
		return r, err
	}
	for j := range r.Scores {
		if math.IsNaN(r.Scores[j]) || math.IsInf(r.Scores[j], 0) || dead[j] != "" {
			r.Scores[j] = 0
			if r.Notes[j] == "" {
				r.Notes[j] = "no score"
			}
		}
		if r.Std != nil && (math.IsNaN(r.Std[j]) || dead[j] != "") {
			r.Std[j] = 0
		}
	}
	r.Ranks = ranks(r.Scores, r.Notes)
	return r, nil
}

// ranks orders the features by score, highest first, ties by the data's
// order, those with a note last.
func ranks(scores []float64, notes []string) []int {
	idx := make([]int, len(scores))
	for j := range idx {
		idx[j] = j
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		na, nb := notes[a] != "", notes[b] != ""
		switch {
		case na != nb:
			if na {
				return 1
			}
			return -1
		case scores[a] > scores[b]:
			return -1
		case scores[a] < scores[b]:
			return 1
		}
		return 0
	})
	out := make([]int, len(scores))
	for k, j := range idx {
		out[j] = k + 1
	}
	return out
}

// deadColumns notes the features no method can rank: all missing, or one
// value throughout.
func deadColumns(d *datasets.Dataset) []string {
	notes := make([]string, len(d.Features))
	n := d.Rows()
	for j := range d.Features {
		first, seen, varies := 0.0, false, false
		for i := range n {
			v := d.X.At(i, j)
			if math.IsNaN(v) {
				continue
			}
			if !seen {
				first, seen = v, true
			} else if v != first {
				varies = true
				break
			}
		}
		switch {
		case !seen:
			notes[j] = "all missing: ranks last"
		case !varies:
			notes[j] = "constant: ranks last"
		}
	}
	return notes
}

// column is feature j's values, one per row.
func column(d *datasets.Dataset, j int) []float64 {
	return mat.Col(nil, j, d.X)
}

// liveColumns is d without the columns dead notes, and the indices of
// those it keeps; d itself when none is dead.
func liveColumns(d *datasets.Dataset, dead []string) (*datasets.Dataset, []int) {
	var keep []int
	for j, note := range dead {
		if note == "" {
			keep = append(keep, j)
		}
	}
	if len(keep) == len(dead) {
		return d, keep
	}
	out := *d
	n := d.Rows()
	out.X = mat.NewDense(n, len(keep), nil)
	out.Features = nil
	for k, j := range keep {
		out.Features = append(out.Features, d.Features[j])
		for i := range n {
			out.X.Set(i, k, d.X.At(i, j))
		}
	}
	return &out, keep
}
