// Package experiment is the Experimenter: several models, on one or more
// datasets, evaluated on identical folds of repeated k-fold
// cross-validation, then summarised as Weka's Experimenter does (mean ± std
// per metric, the corrected resampled t-test of each model against a
// baseline, wins/ties/losses) and, over several datasets, ranked (Friedman
// test and Nemenyi critical difference, Demšar 2006). Only scores on the
// same data and the same folds are ever compared.
package experiment

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
)

// DefaultFolds and DefaultRepeats are the cross-validation an experiment
// runs unless asked otherwise, in the lab as on the command line: 10 × 10,
// as Weka's Experimenter, whose corrected t-test (Nadeau and Bengio) was
// studied with them.
const (
	DefaultFolds   = 10
	DefaultRepeats = 10
)

// Plan is what an experiment runs: every model on every dataset, on
// Repeats draws of Folds-fold cross-validation. Repeat r draws its folds
// from seed Seed+r, the same for every model of a dataset.
type Plan struct {
	Datasets []*datasets.Dataset
	Models   []Model
	Folds    int
	Repeats  int
	Seed     uint64
	Baseline int // index into Models of the model the others are tested against
	Jobs     int // cells run at once (at least 1); results do not depend on it
	// KeepRows keeps each cell's held-out rows (Cell.Rows): what each
	// fold's model predicted for each row it held out.
	KeepRows bool
}

// Cell is one model on one dataset in one repeat: Folds fits.
type Cell struct {
	Dataset, Model, Repeat int
	Folds                  []map[string]float64 // per-fold metrics; fewer than Plan.Folds if cut short
	History                []eval.Point         // the first fold's validation history
	// Rows is the cell's evaluation when the plan keeps its rows: its
	// held-out rows pooled over the folds (eval.Result's Actual,
	// Predicted, TestRows, TestFolds, TestNames, Scores); nil otherwise.
	Rows *eval.Result
	Err  error
}

// Progress says how far an experiment has got: once at the start (Done 0),
// then after each finished cell.
type Progress struct {
	Done, Total int
	Dataset     string
	Model       string
	Repeat      int
	Elapsed     time.Duration
}

// Outcome is what an experiment produced: every cell, indexed as
// Cell(dataset, model, repeat).
type Outcome struct {
	Plan      Plan
	Cells     []Cell
	Cancelled bool // stopped before every cell finished; unfinished cells have Err set
	// memory is shared by the cells run at once: each reserves its
	// estimate before it fits, and waits while the others hold what it
	// needs, rather than each being checked against the memory alone.
	memory engine.Accountant
}

// Cell returns the cell of model m on dataset d in repeat r.
func (o *Outcome) Cell(d, m, r int) *Cell {
	p := o.Plan
	return &o.Cells[(d*len(p.Models)+m)*p.Repeats+r]
}

// Check says what is wrong with a plan before anything runs.
func (p Plan) Check() error {
	switch {
	case len(p.Datasets) == 0:
		return errors.New("experiment: no dataset")
	case len(p.Models) == 0:
		return errors.New("experiment: no model")
	case p.Folds < 2:
		return fmt.Errorf("experiment: %d folds; use at least 2", p.Folds)
	case p.Repeats < 1:
		return fmt.Errorf("experiment: %d repeats; use at least 1", p.Repeats)
	case p.Baseline < 0 || p.Baseline >= len(p.Models):
		return fmt.Errorf("experiment: baseline %d is not one of the %d models", p.Baseline+1, len(p.Models))
	}
	for _, d := range p.Datasets {
		if !d.Task.Supervised() {
			return fmt.Errorf("experiment: dataset %s has no target to predict (%s); an experiment compares classifiers or regressors", d.Name, d.Task)
		}
		for _, m := range p.Models {
			if !m.Spec.Supports(d.Task) {
				return fmt.Errorf("experiment: model %s does not do %s (dataset %s)", m.Label, d.Task, d.Name)
			}
		}
	}
	return nil
}

// Run runs every cell of the plan, Jobs at a time, and reports after each.
// Cancelling ctx stops it: the cells that finished are kept, the rest carry
// the context's error, and Outcome.Cancelled is set. An error is returned
// only when the plan is invalid or its folds cannot be drawn.
func Run(ctx context.Context, p Plan, progress func(Progress)) (*Outcome, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	folds, err := drawFolds(p)
	if err != nil {
		return nil, err
	}
	o := &Outcome{Plan: p, Cells: make([]Cell, len(p.Datasets)*len(p.Models)*p.Repeats)}
	todo := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	start, done := time.Now(), 0
	if progress != nil { // something to show before the first run ends
		progress(Progress{Total: len(o.Cells)})
	}
	for range max(p.Jobs, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range todo {
				c := &o.Cells[i]
				o.run(ctx, c, folds[c.Dataset][c.Repeat])
				mu.Lock()
				done++
				if progress != nil {
					progress(Progress{Done: done, Total: len(o.Cells), Dataset: p.Datasets[c.Dataset].Name,
						Model: p.Models[c.Model].Label, Repeat: c.Repeat + 1, Elapsed: time.Since(start)})
				}
				mu.Unlock()
			}
		}()
	}
	for d := range p.Datasets {
		for m := range p.Models {
			for r := range p.Repeats {
				c := o.Cell(d, m, r)
				c.Dataset, c.Model, c.Repeat = d, m, r
			}
		}
	}
	// Repeat by repeat, so that an interrupted experiment has every model
	// on the same folds.
	for r := range p.Repeats {
		for d := range p.Datasets {
			for m := range p.Models {
				c := o.Cell(d, m, r)
				if ctx.Err() != nil {
					c.Err = ctx.Err()
					continue
				}
				todo <- (d*len(p.Models)+m)*p.Repeats + r
			}
		}
	}
	close(todo)
	wg.Wait()
	o.Cancelled = ctx.Err() != nil
	return o, nil
}

// drawFolds draws each dataset's folds once per repeat, so that every
// model of a dataset and repeat is scored on the very same rows.
func drawFolds(p Plan) ([][][]eval.Fold, error) {
	out := make([][][]eval.Fold, len(p.Datasets))
	for d, ds := range p.Datasets {
		out[d] = make([][]eval.Fold, p.Repeats)
		for r := range p.Repeats {
			f, _, err := eval.Plan(ds, eval.Options{Folds: p.Folds, Seed: p.Seed + uint64(r)})
			if err != nil {
				return nil, fmt.Errorf("%s: %w", ds.Name, err)
			}
			out[d][r] = f
		}
	}
	return out, nil
}

// evaluate runs model m on dataset d over folds of repeat (desc says
// which), in the memory the experiment's runs share, with no final refit:
// only scores count. reserved is false when the memory was not had, so
// nothing was fitted.
func evaluate(ctx context.Context, p Plan, memory *engine.Accountant, m Model, d *datasets.Dataset, repeat int, folds []eval.Fold, desc string) (res *eval.Result, reserved bool, err error) {
	opt := eval.Options{Folds: p.Folds, Seed: p.Seed + uint64(repeat), Plan: folds, PlanDesc: desc, NoRefit: true}
	release, err := memory.ReserveWait(ctx, m.Spec.Name+" on "+d.Name, eval.MemoryNeed(d, m.Spec, m.Values, opt))
	if err != nil {
		return nil, false, err
	}
	defer release()
	res, err = eval.Run(ctx, d, m.Spec, m.Values, opt, nil)
	return res, true, err
}

// run evaluates one cell on its folds.
func (o *Outcome) run(ctx context.Context, c *Cell, folds []eval.Fold) {
	p := o.Plan
	res, _, err := evaluate(ctx, p, &o.memory, p.Models[c.Model], p.Datasets[c.Dataset], c.Repeat, folds, fmt.Sprintf("%d-fold CV", p.Folds))
	if res != nil {
		c.Folds, c.History = res.Folds, res.History
		if len(res.Folds) == 0 && len(folds) == 1 {
			c.Folds = []map[string]float64{res.Metrics}
		}
		if p.KeepRows {
			c.Rows = res
		}
	}
	if err == nil && res != nil && res.Cancelled {
		err = context.Canceled
	}
	c.Err = err
}
