package experiment

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
)

// An experiment too large for one machine is cut into shards: shard I of
// N runs every N-th fold of its grid (RunShard) and keeps the scores in a
// Part, and Merge makes of the N parts the Outcome that Run would have
// made, the same scores to the last bit: a fold is fitted on the rows and
// with the seed Run gives it, whichever shard runs it.

// Shard is the I-th of N slices of an experiment's grid, 1 ≤ I ≤ N.
type Shard struct {
	I int `json:"i"`
	N int `json:"n"`
}

// ParseShard reads "I/N", 1 ≤ I ≤ N.
func ParseShard(s string) (Shard, error) {
	is, ns, ok := strings.Cut(strings.TrimSpace(s), "/")
	i, erri := strconv.Atoi(strings.TrimSpace(is))
	n, errn := strconv.Atoi(strings.TrimSpace(ns))
	switch {
	case !ok || erri != nil || errn != nil:
		return Shard{}, fmt.Errorf("%q is not I/N (the I-th of N shards, e.g. 2/8)", s)
	case n < 1 || i < 1 || i > n:
		return Shard{}, fmt.Errorf("%q is out of range: I/N wants 1 ≤ I ≤ N (e.g. 1/%d to %d/%d)", s, max(n, 1), max(n, 1), max(n, 1))
	}
	return Shard{I: i, N: n}, nil
}

// String is "I/N".
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.I, s.N) }

// Unit is one fold of one repeat of one model on one dataset, the grain an
// experiment is sharded at; every index counts from 0.
type Unit struct {
	Dataset int `json:"dataset"`
	Model   int `json:"model"`
	Repeat  int `json:"repeat"`
	Fold    int `json:"fold"`
}

// Units lists the units of shard s of the plan. The grid is ordered by
// dataset, model, repeat and fold, and its k-th unit (from 0) is shard
// k mod N + 1's, so that each shard gets its share of every model and
// dataset, slow and fast alike. The slicing depends on the plan's sizes
// alone: every machine cuts the same. A shard out of range has none.
func (p Plan) Units(s Shard) []Unit {
	if s.N < 1 || s.I < 1 || s.I > s.N {
		return nil
	}
	var out []Unit
	k := 0
	for d := range p.Datasets {
		for m := range p.Models {
			for r := range p.Repeats {
				for f := range p.Folds {
					if k%s.N == s.I-1 {
						out = append(out, Unit{d, m, r, f})
					}
					k++
				}
			}
		}
	}
	return out
}

// PartFormat and PartVersion are a part file's "format" and "version".
const (
	PartFormat  = "tealab compare part"
	PartVersion = 1
)

// Part is what one shard computed: which shard of which experiment, and
// the scores of its units, as JSON (WritePart, ReadPart).
type Part struct {
	Format     string       `json:"format"`
	Version    int          `json:"version"`
	Shard      Shard        `json:"shard"`
	Experiment Fingerprint  `json:"experiment"`
	Units      []UnitResult `json:"units"`
	// Secs is the shard's wall time: for a person planning the next
	// split; no table shows it.
	Secs float64 `json:"secs"`
}

// Fingerprint is what the parts of one experiment share: its
// cross-validation, its models as given and its data as read. Parts that
// differ in any of it are of different experiments.
type Fingerprint struct {
	Folds    int         `json:"folds"`
	Repeats  int         `json:"repeats"`
	Seed     uint64      `json:"seed"`
	Baseline int         `json:"baseline"` // index into Models
	Models   []string    `json:"models"`   // labels, as ParseModel reads them
	Datasets []DataPrint `json:"datasets"`
}

// DataPrint knows a dataset as an experiment read it.
type DataPrint struct {
	Name string `json:"name"`
	// Hash is "sha256:" and the digest of a file's bytes, or the
	// provenance of a built-in or a generator ("builtin:iris").
	Hash     string   `json:"hash"`
	Task     string   `json:"task"`
	Target   string   `json:"target"`
	Rows     int      `json:"rows"`
	Features []string `json:"features"`
	Classes  []string `json:"classes,omitempty"`
}

// UnitResult is a unit's scores, or why it has none.
type UnitResult struct {
	Unit
	Scores map[string]Score `json:"scores,omitempty"`
	Err    string           `json:"error,omitempty"`
	// BeforeFit: the error came before the fold was fitted (the memory, the
	// model refusing the data as a whole), so Run would have given it as
	// it stands rather than as "fold f of k: ...".
	BeforeFit bool `json:"before_fit,omitempty"`
}

// Score is a float64 whose JSON reads back bit for bit: the shortest form
// that does, and "NaN", "+Inf" or "-Inf" as strings.
type Score float64

// MarshalJSON writes the score exactly.
func (s Score) MarshalJSON() ([]byte, error) {
	v := float64(s)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return []byte(`"` + strconv.FormatFloat(v, 'g', -1, 64) + `"`), nil
	}
	return strconv.AppendFloat(nil, v, 'g', -1, 64), nil
}

// UnmarshalJSON reads a number, or "NaN", "+Inf" or "-Inf".
func (s *Score) UnmarshalJSON(b []byte) error {
	text := strings.Trim(string(b), `"`)
	v, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return fmt.Errorf("score %s is not a number", b)
	}
	*s = Score(v)
	return nil
}

// Fingerprint is the plan's, as its parts record it.
func (p Plan) Fingerprint() Fingerprint {
	fp := Fingerprint{Folds: p.Folds, Repeats: p.Repeats, Seed: p.Seed, Baseline: p.Baseline}
	for _, m := range p.Models {
		fp.Models = append(fp.Models, m.Label)
	}
	for _, d := range p.Datasets {
		dp := DataPrint{Name: d.Name, Hash: d.Source, Task: d.Task.String(), Features: d.FeatureNames(), Classes: d.Classes}
		if d.X != nil { // a merged plan's datasets have no rows
			dp.Rows = d.Rows()
		}
		if d.SHA256 != "" {
			dp.Hash = "sha256:" + d.SHA256
		}
		if d.Target != nil {
			dp.Target = d.Target.Name
		}
		fp.Datasets = append(fp.Datasets, dp)
	}
	return fp
}

// RunShard runs the units of shard s of the plan (Plan.Units), Jobs at a
// time, each on the fold of its repeat that Run draws, with its seed, and
// reports after each unit as Run does after each cell. Cancelling ctx
// stops it with ctx.Err() and no part: a part holds every unit of its
// shard.
func RunShard(ctx context.Context, p Plan, s Shard, progress func(Progress)) (*Part, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	if s.N < 1 || s.I < 1 || s.I > s.N {
		return nil, fmt.Errorf("experiment: shard %s is out of range", s)
	}
	folds, err := drawFolds(p)
	if err != nil {
		return nil, err
	}
	units := p.Units(s)
	part := &Part{Format: PartFormat, Version: PartVersion, Shard: s, Experiment: p.Fingerprint(),
		Units: make([]UnitResult, len(units))}
	var memory engine.Accountant
	todo := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	start, done := time.Now(), 0
	if progress != nil {
		progress(Progress{Total: len(units)})
	}
	for range max(p.Jobs, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range todo {
				u := units[i]
				part.Units[i] = runUnit(ctx, p, &memory, u, folds[u.Dataset][u.Repeat])
				mu.Lock()
				done++
				if progress != nil {
					progress(Progress{Done: done, Total: len(units), Dataset: p.Datasets[u.Dataset].Name,
						Model: p.Models[u.Model].Label, Repeat: u.Repeat + 1, Elapsed: time.Since(start)})
				}
				mu.Unlock()
			}
		}()
	}
	for i := range units {
		if ctx.Err() != nil {
			break
		}
		todo <- i
	}
	close(todo)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	part.Secs = time.Since(start).Seconds()
	return part, nil
}

// runUnit fits and scores one fold as Outcome.run does within its cell:
// the same rows, seed and options, the fold alone in the plan.
func runUnit(ctx context.Context, p Plan, memory *engine.Accountant, u Unit, folds []eval.Fold) UnitResult {
	out := UnitResult{Unit: u}
	res, reserved, err := evaluate(ctx, p, memory, p.Models[u.Model], p.Datasets[u.Dataset], u.Repeat, folds[u.Fold:u.Fold+1],
		fmt.Sprintf("fold %d of %d-fold CV", u.Fold+1, p.Folds))
	switch {
	case !reserved:
		out.Err, out.BeforeFit = err.Error(), true
	case err != nil:
		// eval.Run gives a nil result for what it refuses before a fit.
		out.Err, out.BeforeFit = err.Error(), res == nil
	case res == nil || res.Cancelled:
		out.Err = context.Canceled.Error()
	default:
		// One fold is scored as a hold-out: its metrics are the fold's.
		out.Scores = make(map[string]Score, len(res.Metrics))
		for k, v := range res.Metrics {
			out.Scores[k] = Score(v)
		}
	}
	return out
}

// WritePart writes the part as indented JSON.
func WritePart(w io.Writer, part *Part) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(part)
}

// ReadPart reads a part that WritePart wrote, refusing anything else.
func ReadPart(r io.Reader) (*Part, error) {
	var part Part
	if err := json.NewDecoder(r).Decode(&part); err != nil {
		return nil, fmt.Errorf("not a part of a sharded experiment: %v", err)
	}
	switch {
	case part.Format != PartFormat:
		return nil, fmt.Errorf("not a part of a sharded experiment (its format is %q)", part.Format)
	case part.Version != PartVersion:
		return nil, fmt.Errorf("a part of version %d; this tealab reads version %d", part.Version, PartVersion)
	}
	return &part, nil
}

// Merge makes one outcome of the parts of every shard of one experiment,
// as Run would have made it: the same cells, each with its folds' scores
// up to the first that failed and that fold's error. names name the parts
// (their files) in errors, which say which parts differ and how, which
// shard is missing or given twice.
//
// The merged outcome's plan holds the models (parsed again from their
// labels) and, of each dataset, its name and task only: no rows. Its cells
// hold no validation history.
func Merge(parts []*Part, names []string) (*Outcome, error) {
	if len(parts) == 0 {
		return nil, errors.New("no part to merge")
	}
	name := func(i int) string {
		if i < len(names) {
			return names[i]
		}
		return fmt.Sprintf("part %d", i+1)
	}
	first := parts[0]
	n := first.Shard.N
	by := make([]int, n+1) // by[I]: index+1 of the part of shard I
	for i, part := range parts {
		if part.Shard.N != n {
			return nil, fmt.Errorf("%s is shard %s and %s shard %s: parts of splits into %d and %d shards", name(0), first.Shard, name(i), part.Shard, n, part.Shard.N)
		}
		if what := first.Experiment.Differs(part.Experiment); what != "" {
			return nil, fmt.Errorf("%s and %s are parts of different experiments: %s", name(0), name(i), what)
		}
		if part.Shard.I < 1 || part.Shard.I > n {
			return nil, fmt.Errorf("%s: shard %s is out of range", name(i), part.Shard)
		}
		if j := by[part.Shard.I]; j > 0 {
			return nil, fmt.Errorf("shard %s is given twice: %s and %s", part.Shard, name(j-1), name(i))
		}
		by[part.Shard.I] = i + 1
	}
	var missing []string
	for i := 1; i <= n; i++ {
		if by[i] == 0 {
			missing = append(missing, Shard{i, n}.String())
		}
	}
	switch len(missing) {
	case 0:
	case 1:
		return nil, fmt.Errorf("shard %s is missing (merging %s)", missing[0], strings.Join(names, ", "))
	default:
		return nil, fmt.Errorf("shards %s are missing (merging %s)", strings.Join(missing, ", "), strings.Join(names, ", "))
	}
	p, err := first.Experiment.plan()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name(0), err)
	}
	results := make([]*UnitResult, len(p.Datasets)*len(p.Models)*p.Repeats*p.Folds)
	for i, part := range parts {
		want := p.Units(part.Shard)
		if len(want) != len(part.Units) {
			return nil, fmt.Errorf("%s holds %d units where shard %s of this experiment has %d", name(i), len(part.Units), part.Shard, len(want))
		}
		for k := range part.Units {
			r := &part.Units[k]
			if r.Unit != want[k] {
				return nil, fmt.Errorf("%s: unit %d is not one of shard %s's (dataset %d, model %d, repeat %d, fold %d)", name(i), k+1, part.Shard, r.Dataset+1, r.Model+1, r.Repeat+1, r.Fold+1)
			}
			results[((r.Dataset*len(p.Models)+r.Model)*p.Repeats+r.Repeat)*p.Folds+r.Fold] = r
		}
	}
	o := &Outcome{Plan: p, Cells: make([]Cell, len(p.Datasets)*len(p.Models)*p.Repeats)}
	for d := range p.Datasets {
		for m := range p.Models {
			for r := range p.Repeats {
				c := o.Cell(d, m, r)
				c.Dataset, c.Model, c.Repeat = d, m, r
				base := ((d*len(p.Models)+m)*p.Repeats + r) * p.Folds
				for f := range p.Folds {
					u := results[base+f]
					if u.Err != "" {
						c.Err = errors.New(u.Err)
						if !u.BeforeFit {
							c.Err = fmt.Errorf("fold %d of %d: %w", f+1, p.Folds, c.Err)
						}
						break
					}
					scores := make(map[string]float64, len(u.Scores))
					for k, v := range u.Scores {
						scores[k] = float64(v)
					}
					c.Folds = append(c.Folds, scores)
				}
			}
		}
	}
	return o, nil
}

// plan rebuilds the plan the fingerprint was taken of, without its data.
func (fp Fingerprint) plan() (Plan, error) {
	p := Plan{Folds: fp.Folds, Repeats: fp.Repeats, Seed: fp.Seed, Baseline: fp.Baseline}
	for _, label := range fp.Models {
		m, err := ParseModel(label)
		if err != nil {
			return p, err
		}
		p.Models = append(p.Models, m)
	}
	for _, dp := range fp.Datasets {
		task, err := datasets.ParseTask(dp.Task)
		if err != nil {
			return p, fmt.Errorf("dataset %s: %w", dp.Name, err)
		}
		p.Datasets = append(p.Datasets, &datasets.Dataset{Name: dp.Name, Task: task, Classes: dp.Classes})
	}
	switch {
	case len(p.Datasets) == 0 || len(p.Models) == 0 || p.Folds < 2 || p.Repeats < 1:
		return p, errors.New("the part's experiment is empty")
	case p.Baseline < 0 || p.Baseline >= len(p.Models):
		return p, fmt.Errorf("baseline %d is not one of the %d models", p.Baseline+1, len(p.Models))
	}
	return p, nil
}

// Differs says how b is another experiment than a: "" when it is the same.
func (a Fingerprint) Differs(b Fingerprint) string {
	switch {
	case a.Folds != b.Folds:
		return fmt.Sprintf("%d and %d folds", a.Folds, b.Folds)
	case a.Repeats != b.Repeats:
		return fmt.Sprintf("%d and %d repeats", a.Repeats, b.Repeats)
	case a.Seed != b.Seed:
		return fmt.Sprintf("seeds %d and %d", a.Seed, b.Seed)
	case !slices.Equal(a.Models, b.Models):
		return fmt.Sprintf("models %s and %s", strings.Join(a.Models, ", "), strings.Join(b.Models, ", "))
	case a.Baseline != b.Baseline:
		return fmt.Sprintf("baselines %s and %s", a.model(a.Baseline), b.model(b.Baseline))
	case len(a.Datasets) != len(b.Datasets):
		return fmt.Sprintf("%d and %d datasets", len(a.Datasets), len(b.Datasets))
	}
	for i, x := range a.Datasets {
		y := b.Datasets[i]
		what := ""
		switch {
		case x.Name != y.Name:
			what = fmt.Sprintf("named %s and %s", x.Name, y.Name)
		case x.Hash != y.Hash:
			what = fmt.Sprintf("fingerprints %s and %s", short(x.Hash), short(y.Hash))
		case x.Target != y.Target:
			what = fmt.Sprintf("targets %s and %s", x.Target, y.Target)
		case x.Task != y.Task:
			what = fmt.Sprintf("tasks %s and %s", x.Task, y.Task)
		case x.Rows != y.Rows:
			what = fmt.Sprintf("%d and %d rows", x.Rows, y.Rows)
		case !slices.Equal(x.Features, y.Features):
			what = "features " + firstDifference(x.Features, y.Features)
		case !slices.Equal(x.Classes, y.Classes):
			what = "classes " + firstDifference(x.Classes, y.Classes)
		}
		if what != "" {
			return fmt.Sprintf("dataset %d (%s): %s", i+1, x.Name, what)
		}
	}
	return ""
}

// model is the label of model i, or its number when there is none.
func (a Fingerprint) model(i int) string {
	if i >= 0 && i < len(a.Models) {
		return a.Models[i]
	}
	return fmt.Sprintf("number %d", i+1)
}

// firstDifference says where two lists of names first differ: "3: sex
// and age" (the third), or "5 and 6 of them".
func firstDifference(a, b []string) string {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return fmt.Sprintf("%d: %s and %s", i+1, a[i], b[i])
		}
	}
	return fmt.Sprintf("%d and %d of them", len(a), len(b))
}

// short cuts a file's fingerprint to what a person compares by eye.
func short(h string) string {
	if kind, hex, ok := strings.Cut(h, ":"); ok && kind == "sha256" && len(hex) > 16 {
		return kind + ":" + hex[:16] + "…"
	}
	return h
}
