package tui

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	_ "github.com/tealab/tealab/engine/models"
	"github.com/tealab/tealab/engine/runs"
	"github.com/tealab/tealab/internal/termtest"
	"github.com/tealab/tealab/themes"
	"github.com/tealab/tealab/tui/kit"
	"github.com/tealab/tealab/tui/widgets"
)

// look is the theme and colour profile newTestApp builds apps with: dark
// for a terminal that shows no escapes (NoTTY), so that a view's text is
// what the person reads, unless a test changes it with withLook.
var look = struct {
	theme   string
	profile colorprofile.Profile
}{"dark", colorprofile.NoTTY}

// withLook makes newTestApp build apps with theme on profile for the rest
// of the test.
func withLook(t testing.TB, theme string, profile colorprofile.Profile) {
	old := look
	look.theme, look.profile = theme, profile
	t.Cleanup(func() { look = old })
}

// newTestApp builds the root model at w x h with the look's theme (the
// dark theme for NoTTY unless withLook changed it; "" is the theme the lab
// picks for the terminal).
func newTestApp(t testing.TB, opt Options, w, h int) *app {
	t.Helper()
	if opt.Theme == "" {
		opt.Theme = look.theme
	}
	if opt.Profile == colorprofile.Unknown {
		opt.Profile = look.profile
	}
	opt.NoColor = opt.NoColor || themes.NoColor(os.Getenv)
	a, err := newApp(opt)
	if err != nil {
		t.Fatal(err)
	}
	a.c.ExportDir = exportDir(t)
	a.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return a
}

// exportDirs are the tests' export directories, one a test however many
// apps it opens (a test opens hundreds: making a directory for each cost
// more than drawing them).
var exportDirs sync.Map // testing.TB → string

// exportDir is t's export directory.
func exportDir(t testing.TB) string {
	if dir, ok := exportDirs.Load(t); ok {
		return dir.(string)
	}
	dir := t.TempDir()
	exportDirs.Store(t, dir)
	t.Cleanup(func() { exportDirs.Delete(t) })
	return dir
}

// harness plays the program's part without a terminal: it delivers
// messages to the app and runs the commands Update returns, synchronously,
// feeding their messages back in order. Commands that wait for a training
// run block until the worker reports, so runs are driven for real.
type harness struct {
	t     testing.TB
	a     *app
	queue []tea.Msg
}

func newHarness(t testing.TB, opt Options, w, h int) *harness {
	t.Helper()
	hs := &harness{t: t, a: newTestApp(t, opt, w, h)}
	if cmd := hs.a.Init(); cmd != nil {
		hs.queue = append(hs.queue, cmd())
	}
	hs.settle()
	return hs
}

// runUntil processes messages until done reports true or nothing is left
// (then it returns false).
func (hs *harness) runUntil(done func() bool) bool {
	hs.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		if done != nil && done() {
			return true
		}
		if len(hs.queue) == 0 {
			return false
		}
		if time.Now().After(deadline) {
			hs.t.Fatal("harness: the program did not settle in 20 s")
		}
		m := hs.queue[0]
		hs.queue = hs.queue[1:]
		switch m := m.(type) {
		case nil, tea.QuitMsg:
			continue
		case tea.BatchMsg:
			for _, c := range m {
				if c != nil {
					hs.queue = append(hs.queue, c())
				}
			}
			continue
		}
		_, cmd := hs.a.Update(m)
		if cmd != nil {
			hs.queue = append(hs.queue, cmd())
		}
	}
}

// settle processes everything there is.
func (hs *harness) settle() { hs.runUntil(nil) }

// send delivers a message and settles.
func (hs *harness) send(m tea.Msg) {
	hs.queue = append(hs.queue, m)
	hs.settle()
}

// press sends keys one by one, settling after each.
func (hs *harness) press(keys ...string) {
	for _, k := range keys {
		hs.send(keyMsg(k))
	}
}

// typeText types runes into the focused field.
func (hs *harness) typeText(s string) {
	for _, k := range termtest.Type(s) {
		hs.send(k)
	}
}

func (hs *harness) View() string { return view(hs.a) }

// toTab presses tab until the tabs that tabs returns show name, at most
// once per tab; then the test fails naming the tab it did not find.
func toTab(t testing.TB, name string, tabs func() widgets.Tabs, pressTab func()) {
	t.Helper()
	for range len(tabs().Names()) {
		if tabs().ActiveName() == name {
			return
		}
		pressTab()
	}
	if tabs().ActiveName() != name {
		t.Fatalf("no tab %q among %v", name, tabs().Names())
	}
}

// resultTab moves the results' tabs to name.
func (hs *harness) resultTab(name string) {
	hs.t.Helper()
	toTab(hs.t, name, func() widgets.Tabs { return hs.a.results.Tabs }, func() { hs.press("tab") })
}

// previewTab moves the data preview's tabs to name.
func (hs *harness) previewTab(name string) {
	hs.t.Helper()
	toTab(hs.t, name, func() widgets.Tabs { return hs.a.data.Tabs }, func() { hs.press("tab") })
}

// keyMsg is the key message of a key by its name: "enter", "esc", "a"...
func keyMsg(k string) tea.KeyPressMsg { return termtest.Press(k) }

// view is the app's View without escapes.
func view(a *app) string { return ansi.Strip(a.View()) }

// checkFrame fails unless the view is exactly w x h cells.
func checkFrame(t testing.TB, v string, w, h int) {
	t.Helper()
	lines := strings.Split(v, "\n")
	if len(lines) != h {
		t.Errorf("view has %d lines, want %d", len(lines), h)
	}
	for i, l := range lines {
		if n := ansi.StringWidth(l); n != w {
			t.Errorf("line %d is %d cells wide, want %d: %q", i, n, w, l)
		}
	}
}

// Test-only models, registered in this test binary alone: one that takes its
// time (for cancelling and for watching progress) and one that panics.
func init() {
	engine.Register(engine.Spec{
		Name: "tuitest_slow", Title: "slow test model", Family: "test models",
		Summary: "sleeps at every step; predicts the first class", Notes: "none (tests)",
		Tasks: []engine.Task{datasets.Classification, datasets.Regression}, Unit: "epoch",
		Params: []engine.Param{
			{Name: "steps", Kind: engine.Int, Default: 50, Min: 1, Max: 1e7, Help: "steps to take"},
			{Name: "sleep_us", Kind: engine.Int, Default: 2000, Min: 0, Max: 1e7, Help: "microseconds per step"},
		},
		New: func(v engine.Values) (engine.Model, error) {
			return &slowModel{steps: v.Int("steps"), sleep: time.Duration(v.Int("sleep_us")) * time.Microsecond}, nil
		},
	})
	engine.Register(engine.Spec{
		Name: "tuitest_crash", Title: "crashing test model", Family: "test models",
		Summary: "panics in Fit", Notes: "none (tests)",
		Tasks: []engine.Task{datasets.Classification}, Unit: "step",
		New: func(v engine.Values) (engine.Model, error) { return crashModel{}, nil },
	})
}

type slowModel struct {
	steps  int
	sleep  time.Duration
	fitted bool
}

func (m *slowModel) Fit(ctx context.Context, d engine.Train, rec engine.Recorder) error {
	for i := 1; i <= m.steps; i++ {
		if m.sleep > 0 {
			time.Sleep(m.sleep)
		}
		if err := rec.Step(engine.Step{Step: i, Total: m.steps, TrainLoss: 1 / float64(i)}); err != nil {
			return err
		}
	}
	m.fitted = true
	return nil
}

func (m *slowModel) Predict(X mat.Matrix) ([]float64, error) {
	if !m.fitted {
		return nil, engine.ErrNotFitted
	}
	r, _ := X.Dims()
	return make([]float64, r), nil
}

type crashModel struct{}

func (crashModel) Fit(ctx context.Context, d engine.Train, rec engine.Recorder) error {
	var m map[string]int
	//lint:ignore SA5000 a real runtime panic is the point
	m["boom"]++
	return nil
}

func (crashModel) Predict(X mat.Matrix) ([]float64, error) { return nil, engine.ErrNotFitted }

// tuitest_split is a clusterer: two clusters by the sign of the first
// feature after centring.
func init() {
	engine.Register(engine.Spec{
		Name: "tuitest_split", Title: "sign split", Family: "test models",
		Summary: "two clusters by the sign of the first centred feature", Notes: "none (tests)",
		Tasks: []engine.Task{datasets.Clustering}, Unit: "step",
		New: func(v engine.Values) (engine.Model, error) { return &splitModel{}, nil },
	})
}

type splitModel struct {
	mean   float64
	fitted bool
}

func (m *splitModel) Fit(ctx context.Context, d engine.Train, rec engine.Recorder) error {
	col := mat.Col(nil, 0, d.X)
	m.mean = 0
	for _, v := range col {
		m.mean += v / float64(len(col))
	}
	m.fitted = true
	return rec.Step(engine.Step{Step: 1, Total: 1, TrainLoss: 0})
}

func (m *splitModel) Predict(X mat.Matrix) ([]float64, error) {
	if !m.fitted {
		return nil, engine.ErrNotFitted
	}
	r, _ := X.Dims()
	out := make([]float64, r)
	for i := range r {
		if X.At(i, 0) > m.mean {
			out[i] = 1
		}
	}
	return out, nil
}

// newRun makes a run of spec on d, as the lab does; with res it is done.
func newRun(t testing.TB, id int, source, target string, d *datasets.Dataset, spec *engine.Spec, opt eval.Options, res *eval.Result) *kit.RunRecord {
	t.Helper()
	r := &kit.RunRecord{Record: runs.New(id, runs.Data{Source: source, Target: target}, d, spec, spec.Defaults(), opt)}
	if res != nil {
		r.Finish(res, nil)
	}
	return r
}

// trainSteps is the number of steps of the current fold the training
// screen has received.
func trainSteps(hs *harness) int {
	h := hs.a.train.Hist
	if len(h) == 0 {
		return 0
	}
	return len(h[len(h)-1])
}

// paramsOf parses settings for a model as the command line does before it
// opens the lab (Options.Params are typed and valid).
func paramsOf(model string, settings map[string]string) engine.Values {
	spec, err := engine.Lookup(model)
	if err != nil {
		panic(err)
	}
	v, err := spec.Parse(settings)
	if err != nil {
		panic(err)
	}
	return v
}

// plainCommon is the lab's common state, dark theme, drawn without colour.
func plainCommon(t testing.TB) *kit.Common {
	t.Helper()
	c, err := kit.NewCommon("dark", colorprofile.NoTTY, false)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// openDataset opens source with its last column the target.
func openDataset(t testing.TB, source string) *datasets.Dataset {
	t.Helper()
	tb, err := datasets.Open(source)
	if err != nil {
		t.Fatal(err)
	}
	d, err := tb.Dataset("", datasets.Auto)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// The evaluation settings a test opens the lab with: the declared defaults
// but for one.
func cv(k int) *eval.Options          { o := eval.DefaultOptions(); o.Folds = k; return &o }
func holdOut(f float64) *eval.Options { o := eval.DefaultOptions(); o.Split = f; return &o }
func loo() *eval.Options              { o := eval.DefaultOptions(); o.LOO = true; return &o }
func standardized(on bool) *eval.Options {
	o := eval.DefaultOptions()
	o.Standardize = &on
	return &o
}
