package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/table"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/internal/termtest"
	"github.com/tealab/tealab/tui/kit"
	"github.com/tealab/tealab/tui/screens/data"
	"github.com/tealab/tealab/tui/screens/params"
	"github.com/tealab/tealab/tui/screens/sweep"
)

// Every key, on every screen and in every text field, in every state of the
// field: nothing panics (alt+d in any text field panicked inside
// bubbles' textinput and left the terminal raw). The keys are those of the
// key maps the app holds (collected, not listed here, so a new binding is
// covered), bubbles' textinput and table key maps, and alt+a..z.

// place is somewhere a person can be: a screen in some mode, or a text
// field with the keyboard.
type place struct {
	name  string
	open  func(t testing.TB) *harness // a new app there
	back  func(hs *harness)           // back there from a nearby place (nil: open anew)
	here  func(a *app) bool           // the app is there
	field func(a *app) *kit.TextField // the text field, nil for none
}

// reach brings hs back to p, or opens a new app there.
func (p place) reach(t testing.TB, hs *harness) *harness {
	if p.here(hs.a) && hs.a.ctx.Err() == nil {
		return hs
	}
	if p.back != nil && hs.a.ctx.Err() == nil && (hs.a.cur != screenTrain || hs.a.job == nil) {
		p.back(hs)
		if p.here(hs.a) {
			return hs
		}
	}
	closeHarness(hs)
	return p.open(t)
}

// fieldState is a text field's content and cursor.
type fieldState struct {
	name  string
	value string
	pos   int
}

// fieldText has a space, so that word keys have a word to move over.
const fieldText = "12 ab"

var fieldStates = []fieldState{
	{"empty", "", 0},
	{"cursor at the end", fieldText, 5},
	{"cursor on the last character", fieldText, 4},
	{"cursor in the middle", fieldText, 2},
	{"cursor at the start", fieldText, 0},
}

func TestEveryKeyEverywhere(t *testing.T) {
	t.Chdir(browsableDir(t)) // the file browser opens on the working directory
	places := allPlaces(t)
	keys := allKeys(t, places)
	var screens [numScreens]bool
	for _, p := range places {
		hs := p.open(t)
		screens[hs.a.cur] = true
		states := []fieldState{{name: "as it opens"}}
		if p.field != nil {
			states = fieldStates
		}
		for _, st := range states {
			for _, k := range keys {
				hs = p.reach(t, hs)
				if p.field != nil {
					setField(t, hs, p, st)
				}
				pressSafely(t, hs, k, p.name+", "+st.name)
			}
		}
		closeHarness(hs)
	}
	for s, seen := range screens {
		if !seen {
			t.Errorf("no place is on the %s screen", screenNames[s])
		}
	}
}

// pressSafely sends key k and fails the test, naming where, if it panics.
func pressSafely(t *testing.T, hs *harness, k, where string) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("%s: key %q panicked: %v", where, k, r)
		}
	}()
	if hs.a.cur == screenTrain && hs.a.job != nil {
		hs.a.Update(namedKey(k)) // the run's messages would block the harness
		return
	}
	hs.send(namedKey(k))
}

// setField puts place p's field in state st.
func setField(t *testing.T, hs *harness, p place, st fieldState) {
	t.Helper()
	f := p.field(hs.a)
	if f == nil || !f.Focused() {
		t.Fatalf("%s: the field does not have the keyboard", p.name)
	}
	f.SetValue(st.value)
	f.SetCursor(st.pos)
	if f.Value() != st.value || f.Position() != st.pos {
		t.Fatalf("%s: the field holds %q with the cursor at %d, want %s", p.name, f.Value(), f.Position(), st.name)
	}
}

// closeHarness stops the app's runs.
func closeHarness(hs *harness) {
	hs.a.cancel()
	hs.a.job.Stop(kit.QuitWait)
}

// allPlaces lists every screen, mode and text field of the lab: the data
// list, each preview tab, the file browser, the path field and every
// generator knob; the model list; the forms of models that between them
// have every kind of parameter (every field, and the folds field that shows
// under cross-validation); training while it runs and once it failed; the
// results of models that between them have every view, on each tab; the
// runs table and its comparison.
func allPlaces(t *testing.T) []place {
	var ps []place
	start := func(opt Options) func(testing.TB) *harness {
		return func(t testing.TB) *harness { return newHarness(t, opt, 120, 40) }
	}
	then := func(open func(testing.TB) *harness, keys ...string) func(testing.TB) *harness {
		return func(t testing.TB) *harness {
			hs := open(t)
			hs.press(keys...)
			return hs
		}
	}
	onData := func(f data.DataFocus) func(*app) bool {
		return func(a *app) bool { return a.cur == screenData && a.data.Focus == f }
	}
	ps = append(ps,
		place{name: "data list", open: start(Options{}), here: onData(data.FocusList)},
		place{name: "file browser", open: then(start(Options{}), "o"), here: onData(data.FocusPicker)},
		place{name: "path field", open: then(start(Options{}), "p"), here: onData(data.FocusPath),
			field: func(a *app) *kit.TextField { return &a.data.Path }},
	)
	for _, tab := range []string{data.PreviewColumns, data.PreviewPlot, data.PreviewMatrix, data.PreviewHist, data.PreviewRows, data.PreviewBalance} {
		ps = append(ps, place{name: "data preview " + tab,
			open: func(t testing.TB) *harness {
				hs := newHarness(t, Options{Data: "iris"}, 120, 40)
				hs.previewTab(tab)
				return hs
			},
			back: func(hs *harness) {
				hs.a.goTo(screenData)
				if hs.a.data.Ds != nil && hs.a.data.Source == "iris" {
					hs.a.data.Focus = data.FocusPreview
					hs.previewTab(tab)
				}
			},
			here: func(a *app) bool { return onData(data.FocusPreview)(a) && a.data.Tabs.ActiveName() == tab }})
	}
	ps = append(ps, place{name: "data preview Matrix, choosing features",
		open: func(t testing.TB) *harness {
			hs := newHarness(t, Options{Data: "iris"}, 120, 40)
			hs.previewTab(data.PreviewMatrix)
			hs.press("c")
			return hs
		},
		here: func(a *app) bool {
			return onData(data.FocusPreview)(a) && a.data.Tabs.ActiveName() == data.PreviewMatrix && a.data.MatrixChoosing()
		}})
	ps = append(ps, knobPlaces(t)...)
	ps = append(ps, place{name: "model list", open: then(start(Options{Data: "iris"}), "enter"),
		here: func(a *app) bool { return a.cur == screenModel }})
	// The evaluation settings are the same in every form: once each.
	forms := formsWithEveryKind(t)
	for i, opt := range forms {
		ps = append(ps, formPlaces(t, opt, func(f *params.Field) bool { return f.Model || i == 0 })...)
	}
	cv := Options{Data: "iris", Model: forms[0].Model, Eval: cv(5)}
	ps = append(ps, formPlaces(t, cv, func(f *params.Field) bool { return f.P.Name == "folds" })...)
	slow := Options{Data: "iris", Model: "tuitest_slow", Params: paramsOf("tuitest_slow", map[string]string{"steps": "10000000", "sleep_us": "1000"})}
	ps = append(ps,
		place{name: "training", open: func(t testing.TB) *harness {
			hs := newHarness(t, slow, 120, 40)
			hs.queue = append(hs.queue, namedKey("enter"))
			hs.runUntil(func() bool { return trainSteps(hs) > 0 })
			return hs
		}, here: func(a *app) bool { return a.cur == screenTrain && a.job != nil }},
		place{name: "training failed", open: start(Options{Data: "iris", Model: "tuitest_crash", Train: true}),
			here: func(a *app) bool { return a.cur == screenTrain && a.job == nil }},
	)
	for _, opt := range []Options{
		{Data: "iris", Model: "tree"}, {Data: "iris", Model: "logistic"}, {Data: "iris", Model: "knn"},
		{Data: "iris", Model: "kmeans"}, {Data: "iris", Model: "hclust"}, {Data: "iris", Model: "pca"},
		{Data: "diabetes", Model: "linear"}, {Data: "iris", Model: "tuitest_stars"},
	} {
		ps = append(ps, resultPlaces(t, opt)...)
	}
	sweepRange := then(start(Options{Data: "iris", Model: "knn", Params: paramsOf("knn", map[string]string{"k": "3"})}), "down", "ctrl+s")
	ps = append(ps,
		place{name: "experimenter list", open: then(start(Options{Data: "iris"}), "enter", "X"),
			here: func(a *app) bool { return a.cur == screenExperiment && a.exp.Outcome == nil }},
		place{name: "experimenter results", open: experimentOnIris,
			here: func(a *app) bool { return a.cur == screenExperiment && a.exp.Outcome != nil }},
		place{name: "sweep range", open: sweepRange,
			here:  func(a *app) bool { return a.cur == screenSweep && a.sweep.Mode == sweep.Editing },
			field: func(a *app) *kit.TextField { return &a.sweep.Input }},
		place{name: "sweep done", open: func(t testing.TB) *harness {
			hs := sweepRange(t)
			hs.a.sweep.Input.SetValue("k=1..3")
			hs.press("enter")
			return hs
		}, here: func(a *app) bool { return a.cur == screenSweep && a.sweep.Mode == sweep.Done }},
		place{name: "features", open: then(start(Options{Data: "iris", Model: "lda"}), "esc", "esc", "F"),
			here: func(a *app) bool { return a.cur == screenFeatures }},
		place{name: "lectures menu", open: then(start(Options{}), "L"),
			here: func(a *app) bool { return a.cur == screenLectures && a.lect.Shown() == nil && a.lect.Knob() == "" }},
		place{name: "lectures knobs, a text field", open: then(start(Options{}), "L", "enter", "down"),
			here:  func(a *app) bool { return a.cur == screenLectures && a.lect.Field() != nil },
			field: func(a *app) *kit.TextField { return a.lect.Field() }},
		place{name: "lectures picture", open: then(start(Options{}), "L", "enter", "enter"),
			here: func(a *app) bool { return a.cur == screenLectures && a.lect.Shown() != nil && !a.lect.Running() }},
	)
	twoRuns := then(start(Options{Data: "iris", Model: "gnb", Train: true}), "esc", "enter", "R")
	ps = append(ps,
		place{name: "runs", open: twoRuns, here: func(a *app) bool { return a.cur == screenRuns && !a.runs.Compare }},
		place{name: "runs compared", open: func(t testing.TB) *harness {
			hs := twoRuns(t)
			hs.a.runs.Picked = []int{1, 2}
			hs.press("enter")
			return hs
		},
			here: func(a *app) bool { return a.cur == screenRuns && a.runs.Compare }},
	)
	return ps
}

// knobPlaces are the knob fields of every generator.
func knobPlaces(t *testing.T) []place {
	var ps []place
	for i, e := range newTestApp(t, Options{}, 120, 40).data.Entries {
		for k, knob := range e.Knobs {
			ps = append(ps, place{name: fmt.Sprintf("knob %s of %s", knob.Name, e.Name),
				open: func(t testing.TB) *harness {
					hs := newHarness(t, Options{}, 120, 40)
					hs.a.data.Cursor = i
					hs.press("e")
					for range k {
						hs.press("tab")
					}
					return hs
				},
				back: func(hs *harness) {
					hs.a.goTo(screenData)
					hs.a.data.Back()
					hs.a.data.Cursor = i
					hs.press("e")
					for range k {
						hs.press("tab")
					}
				},
				here: func(a *app) bool {
					return a.cur == screenData && a.data.Focus == data.FocusKnobs && a.data.Cursor == i && a.data.Kfocus == k
				},
				field: func(a *app) *kit.TextField { return &a.data.Knobs[e.Name][k].Input }})
		}
	}
	if len(ps) == 0 {
		t.Fatal("no generator has knobs")
	}
	return ps
}

// formsWithEveryKind picks forms (on iris) that between them have every
// kind of parameter.
func formsWithEveryKind(t *testing.T) []Options {
	var out []Options
	missing := map[engine.ParamKind]bool{engine.Int: true, engine.Float: true, engine.Bool: true, engine.Choice: true, engine.Text: true}
	covered := func(s *engine.Spec) int {
		kinds := map[engine.ParamKind]bool{}
		for _, p := range s.Params {
			kinds[p.Kind] = kinds[p.Kind] || missing[p.Kind]
		}
		n := 0
		for _, m := range kinds {
			if m {
				n++
			}
		}
		return n
	}
	// The fewest fields that cover the kinds: every field is a place,
	// and each place is opened again for every key.
	specs := slices.DeleteFunc(engine.Specs(), func(s *engine.Spec) bool {
		return strings.HasPrefix(s.Name, "tuitest") || !s.Supports(datasets.Classification)
	})
	for len(missing) > 0 {
		best := slices.MaxFunc(specs, func(a, b *engine.Spec) int {
			if c := covered(a) - covered(b); c != 0 {
				return c
			}
			return len(b.Params) - len(a.Params)
		})
		if covered(best) == 0 {
			t.Fatalf("no model on iris has parameters of kinds %v", missing)
		}
		out = append(out, Options{Data: "iris", Model: best.Name})
		for _, q := range best.Params {
			delete(missing, q.Kind)
		}
	}
	return out
}

// formPlaces are the fields (those keep keeps) of the form opt opens on: a
// text field each for numbers and text, a mode each for choices and
// switches.
func formPlaces(t *testing.T, opt Options, keep func(*params.Field) bool) []place {
	hs := newHarness(t, opt, 120, 40)
	var ps []place
	for _, f := range hs.a.params.Visible() {
		if !keep(f) {
			continue
		}
		name := f.P.Name
		p := place{name: fmt.Sprintf("%s form (folds %d), field %s (%s)", opt.Model, opt.evalOptions().Folds, name, f.P.Kind),
			open: func(t testing.TB) *harness {
				hs := newHarness(t, opt, 120, 40)
				hs.focusParam(name)
				return hs
			},
			back: func(hs *harness) {
				if hs.a.cur != screenParams {
					hs.a.goTo(screenParams)
				}
				hs.focusParam(name)
			},
			here: func(a *app) bool {
				f := a.params.Current()
				return a.cur == screenParams && f != nil && f.P.Name == name
			}}
		if f.Text() {
			p.field = func(a *app) *kit.TextField { return &a.params.Current().Input }
		}
		ps = append(ps, p)
	}
	return ps
}

// resultPlaces are the tabs of the results of opt's model, trained once.
func resultPlaces(t *testing.T, opt Options) []place {
	opt.Train = true
	trained := newHarness(t, opt, 120, 40)
	if trained.a.cur != screenResults {
		t.Fatalf("%s on %s: no results", opt.Model, opt.Data)
	}
	run := trained.a.history[0]
	var ps []place
	for _, tab := range trained.a.results.Tabs.Names() {
		show := func(hs *harness) {
			if hs.a.results.Run != run {
				hs.send(kit.ShowRunMsg{Run: run.ID})
			}
			hs.a.goTo(screenResults)
			for range len(hs.a.results.Tabs.Names()) {
				if hs.a.results.Tabs.ActiveName() == tab {
					break
				}
				hs.press("tab")
			}
		}
		ps = append(ps, place{name: fmt.Sprintf("results of %s, tab %s", opt.Model, tab),
			open: func(t testing.TB) *harness {
				hs := newHarness(t, Options{}, 120, 40)
				hs.a.history = append(hs.a.history, run)
				hs.a.nextRun = run.ID + 1
				show(hs)
				return hs
			},
			back: show,
			here: func(a *app) bool { return a.cur == screenResults && a.results.Tabs.ActiveName() == tab }})
	}
	closeHarness(trained)
	return ps
}

// allKeys are the keys of every key map the app holds at any of the
// places, of bubbles' text input and table, and alt with every letter.
func allKeys(t *testing.T, places []place) []string {
	set := map[string]bool{}
	collectKeys(reflect.ValueOf(textinput.DefaultKeyMap), set)
	collectKeys(reflect.ValueOf(table.DefaultKeyMap()), set)
	for _, p := range places {
		hs := p.open(t)
		closeHarness(hs) // no run changes the app while it is walked
		collectKeys(reflect.ValueOf(hs.a), set)
	}
	for c := 'a'; c <= 'z'; c++ {
		set["alt+"+string(c)] = true
	}
	for _, must := range []string{"alt+d", "q", "esc", "enter", "ctrl+c", "R", "?"} {
		if !set[must] {
			t.Fatalf("key %q was not collected", must)
		}
	}
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// machinery are packages whose values hold no key bindings and may be
// changed by other goroutines.
var machinery = map[string]bool{"context": true, "sync": true, "sync/atomic": true, "time": true}

// collectKeys adds the keys of every key.Binding reachable from v.
func collectKeys(v reflect.Value, set map[string]bool) {
	type seenKey struct {
		t reflect.Type
		p uintptr
	}
	seen := map[seenKey]bool{}
	binding := reflect.TypeOf(key.Binding{})
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		if t := v.Type(); t.Kind() == reflect.Pointer && machinery[t.Elem().PkgPath()] || machinery[t.PkgPath()] {
			return
		}
		switch v.Kind() {
		case reflect.Pointer:
			if v.IsNil() || seen[seenKey{v.Type(), v.Pointer()}] {
				return
			}
			seen[seenKey{v.Type(), v.Pointer()}] = true
			walk(v.Elem())
		case reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case reflect.Struct:
			if v.Type() == binding {
				ks := v.FieldByName("keys") // bubbles keeps them unexported
				for i := range ks.Len() {
					set[ks.Index(i).String()] = true
				}
				return
			}
			for i := range v.NumField() {
				walk(v.Field(i))
			}
		case reflect.Slice, reflect.Array:
			switch v.Type().Elem().Kind() {
			case reflect.Struct, reflect.Pointer, reflect.Interface, reflect.Slice, reflect.Array, reflect.Map:
				for i := range v.Len() {
					walk(v.Index(i))
				}
			}
		case reflect.Map:
			for it := v.MapRange(); it.Next(); {
				walk(it.Value())
			}
		}
	}
	walk(v)
}

// namedKey is the key message for a binding's key name.
func namedKey(name string) tea.KeyPressMsg { return termtest.Press(name) }

// browsableDir is a folder with a data file and a sub-folder, for the file
// browser to list.
func browsableDir(t *testing.T) string {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "tiny.csv"), []byte("a,b,label\n1,2,x\n2,1,y\n3,3,x\n4,0,y\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}
