package nn

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/persisttest"
)

// The live validation's pace on the digits' 80/20 hold-out (1437 rows to
// train on, 360 scored): an MLP epoch costs about four forward passes a
// row, so scoring 360 rows every second epoch stays within 4% of the fit;
// a CNN's, about one and a half, and it scores its 144 held-back rows
// itself, so every fifth. Leave-one-out scores one row: every epoch.
func TestValidateEvery(t *testing.T) {
	for _, c := range []struct {
		rows int
		p    pace
		cost float64
		want int
	}{
		{360, pace{train: 1437}, mlpEpochCost, 2},
		{360, pace{train: 1294, held: 144}, cnnEpochCost, 5},
		{1, pace{train: 1796}, mlpEpochCost, 1},
		{0, pace{}, mlpEpochCost, 1},
	} {
		if got := c.p.validateEvery(c.rows, c.cost); got != c.want {
			t.Errorf("%d rows scored, %+v at cost %v: every %d epochs, want %d", c.rows, c.p, c.cost, got, c.want)
		}
	}
}

// tickRecorder records steps and ticks, predicting rows X at each (the
// model's state then), and stops the fit at tick stopAt (0: never).
type tickRecorder struct {
	model  engine.Predictor
	X      mat.Matrix
	steps  []engine.Step
	ticks  []float64 // step + share done
	preds  [][]float64
	stopAt int
	stopOn int // or at this step
}

func (r *tickRecorder) Step(s engine.Step) error {
	r.steps = append(r.steps, s)
	if r.model != nil {
		p, err := r.model.Predict(r.X)
		if err != nil {
			return err
		}
		r.preds = append(r.preds, p)
	}
	if s.Step == r.stopOn {
		return context.Canceled
	}
	return nil
}

func (r *tickRecorder) Tick(step, total int, done float64) error {
	r.ticks = append(r.ticks, float64(step-1)+done)
	if len(r.ticks) == r.stopAt {
		return context.Canceled
	}
	return nil
}

// fitTicking fits a spec's model with settings on d, ticking every time.
func fitTicking(t *testing.T, name string, settings map[string]string, d engine.Train, rec *tickRecorder) (engine.Model, error) {
	t.Helper()
	defer func(was time.Duration) { tickEvery = was }(tickEvery)
	tickEvery = 0
	m := engine.MustBuild(name, settings)
	rec.model, rec.X = m.(engine.Predictor), d.X
	return m, engine.Fit(context.Background(), m, d, rec)
}

// A long epoch tells the recorder how far it has got between its steps,
// and the history keeps one step an epoch.
func TestLongEpochsTick(t *testing.T) {
	d := persisttest.Builtin(t, "digits", datasets.Classification)
	for name, settings := range map[string]map[string]string{
		"mlp": {"hidden": "8", "batch": "4", "epochs": "2"},
		"cnn": {"filters": "2", "batch": "64", "epochs": "2", "patience": "0"},
	} {
		rec := &tickRecorder{}
		if _, err := fitTicking(t, name, settings, d, rec); err != nil {
			t.Fatal(err)
		}
		if len(rec.steps) != 2 || len(rec.ticks) < 4 {
			t.Fatalf("%s: %d steps and %d ticks, want 2 steps with ticks between", name, len(rec.steps), len(rec.ticks))
		}
		if !slices.IsSorted(rec.ticks) || rec.ticks[0] <= 0 || rec.ticks[len(rec.ticks)-1] >= 2 {
			t.Errorf("%s: ticks at %v, want rising within the two epochs", name, rec.ticks)
		}
	}
}

// A fit stopped mid-epoch (by a tick) or at a step (cancelled) keeps the
// weights it had at its last whole epoch, or its best one under early
// stopping: the model then predicts as it did at that step.
func TestCancelKeepsTheBestWeights(t *testing.T) {
	d := persisttest.Builtin(t, "digits", datasets.Classification)
	for _, c := range []struct {
		name     string
		settings map[string]string
		stopAt   int // tick, or
		stopOn   int // step
	}{
		{"mlp", map[string]string{"hidden": "8", "batch": "4", "epochs": "50"}, 20, 0},
		{"mlp", map[string]string{"hidden": "8", "batch": "4", "epochs": "50"}, 0, 4},
		{"mlp", map[string]string{"hidden": "8", "batch": "16", "epochs": "50", "patience": "50", "lr": "0.3"}, 0, 8},
		{"cnn", map[string]string{"filters": "2", "batch": "64", "epochs": "50", "patience": "0"}, 60, 0},
		{"cnn", map[string]string{"filters": "2", "batch": "64", "epochs": "50", "patience": "50", "lr": "0.3"}, 0, 8},
	} {
		rec := &tickRecorder{stopAt: c.stopAt, stopOn: c.stopOn}
		m, err := fitTicking(t, c.name, c.settings, d, rec)
		if !errors.Is(err, context.Canceled) || len(rec.steps) < 2 {
			t.Fatalf("%s %v: %v after %d steps, want a cancel after some", c.name, c.settings, err, len(rec.steps))
		}
		want := len(rec.steps) // the last whole epoch
		if b := bestEpoch(m); b > 0 {
			want = b
		}
		got, err := m.(engine.Predictor).Predict(d.X)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, rec.preds[want-1]) {
			t.Errorf("%s %v: stopped after %d steps, it predicts otherwise than at step %d", c.name, c.settings, len(rec.steps), want)
		}
	}
}

// bestEpoch is the epoch whose weights an MLP under early stopping keeps
// (0: none, or a CNN, whose every step already shows its best weights).
func bestEpoch(m engine.Model) int {
	if p, ok := m.(*MLP); ok && p.rows.held > 0 {
		return p.best
	}
	return 0
}

// Both networks define their training parameters once (only the defaults
// differ) and hold back rows by one rule: at least one row when there is
// patience, even where the share rounds to none, and one left to train on.
func TestNetworksShareTheirTraining(t *testing.T) {
	mlp, _ := engine.Lookup(mlpName)
	cnn, _ := engine.Lookup("cnn")
	for _, p := range trainingParams(0, 0, 0) {
		a, okA := mlp.Param(p.Name)
		b, okB := cnn.Param(p.Name)
		if !okA || !okB || a.Min != b.Min || a.Max != b.Max || a.Help != b.Help || a.Kind != b.Kind {
			t.Errorf("parameter %s: mlp %+v, cnn %+v; want one definition", p.Name, a, b)
		}
	}
	four := persisttest.Builtin(t, "iris", datasets.Classification)
	four.X, four.Y = four.X.Slice(0, 4, 0, 4).(*mat.Dense), four.Y[:4]
	for _, name := range []string{mlpName, "cnn"} {
		m := engine.MustBuild(name, map[string]string{"patience": "2", "epochs": "2"})
		if err := engine.Fit(context.Background(), m, four, nil); err != nil {
			t.Fatal(err)
		}
		var rows pace
		switch m := m.(type) {
		case *MLP:
			rows = m.rows
		case *CNN:
			rows = m.rows
		}
		if rows != (pace{train: 3, held: 1}) {
			t.Errorf("%s with patience on 4 rows: %+v, want one held back", name, rows)
		}
	}
}

// Sample weights weight each row's loss: rows of weight 0 do not count,
// so relabelling them changes nothing, bit for bit, for either network.
func TestZeroWeightRowsDoNotCount(t *testing.T) {
	d := persisttest.Builtin(t, "iris", datasets.Classification)
	d.Weights = make([]float64, d.Rows())
	relabelled := d
	relabelled.Y = slices.Clone(d.Y)
	for i := range d.Weights {
		d.Weights[i] = 1
		if i%5 == 0 {
			d.Weights[i] = 0
			relabelled.Y[i] = float64((int(d.Y[i]) + 1) % 3)
		}
	}
	for _, name := range []string{mlpName, "cnn"} {
		var proba [2]*mat.Dense
		for k, data := range []engine.Train{d, relabelled} {
			m := engine.MustBuild(name, map[string]string{"epochs": "20", "patience": "0"})
			if err := engine.Fit(context.Background(), m, data, nil); err != nil {
				t.Fatal(err)
			}
			proba[k], _ = m.(engine.Prober).PredictProba(d.X)
		}
		if !mat.Equal(proba[0], proba[1]) {
			t.Errorf("%s: relabelling rows of weight 0 changed the fit", name)
		}
	}
	d.Weights[3] = math.NaN()
	if err := engine.Fit(context.Background(), engine.MustBuild(mlpName, nil), d, nil); err == nil || !strings.Contains(err.Error(), "mlp: row 4: sample weight NaN must be a finite number >= 0") {
		t.Errorf("a NaN weight: %v", err)
	}
}

// After its first call the live validation's scoring of an MLP allocates
// nothing.
func TestMLPScoringAllocatesNothing(t *testing.T) {
	d := persisttest.Builtin(t, "digits", datasets.Classification)
	m := engine.MustBuild(mlpName, map[string]string{"epochs": "1"})
	if err := engine.Fit(context.Background(), m, d, nil); err != nil {
		t.Fatal(err)
	}
	s, _ := m.(engine.Staged).Stages(d.X)
	if _, _, err := s.Scores(); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(3, func() { _, _, _ = s.Scores() }); n != 0 {
		t.Errorf("a scoring allocates %v times", n)
	}
}
