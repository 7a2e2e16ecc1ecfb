package tree

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/persisttest"
)

// persisted fits a model, writes its state and loads it into a model
// built afresh with the same settings.
func persisted(t *testing.T, name string, settings map[string]string, tr engine.Train) (fitted, loaded engine.Model, state []byte) {
	t.Helper()
	return persisttest.Persisted(t, persisttest.Case{Name: name, Settings: settings, Train: tr})
}

// sameAnswers checks that two models answer alike on X, bit for bit:
// predictions, probabilities, stages and what they learned (tree, rules,
// importances).
func sameAnswers(t *testing.T, name string, a, b engine.Model, X mat.Matrix) {
	t.Helper()
	pa, err := a.(engine.Predictor).Predict(X)
	if err != nil {
		t.Fatal(err)
	}
	pb, err := b.(engine.Predictor).Predict(X)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(pa, pb) {
		t.Errorf("%s: loaded model predicts otherwise", name)
	}
	if pr, ok := a.(engine.Prober); ok {
		Pa, errA := pr.PredictProba(X)
		Pb, errB := b.(engine.Prober).PredictProba(X)
		if (errA == nil) != (errB == nil) || errA == nil && !sameBits(Pa.RawMatrix().Data, Pb.RawMatrix().Data) {
			t.Errorf("%s: loaded model's probabilities differ (%v, %v)", name, errA, errB)
		}
	}
	if st, ok := a.(engine.Staged); ok {
		sa, _ := st.Stages(X)
		sb, err := b.(engine.Staged).Stages(X)
		if err != nil {
			t.Fatal(err)
		}
		ya, _, _ := sa.Scores()
		yb, _, _ := sb.Scores()
		if !slices.Equal(ya, yb) {
			t.Errorf("%s: loaded model's stages differ", name)
		}
	}
	la, _ := engine.Learned(a)
	lb, _ := engine.Learned(b)
	if len(la) == 0 || !reflect.DeepEqual(la, lb) {
		t.Errorf("%s: loaded model learned otherwise (tree, rules or importances)", name)
	}
}

func sameBits(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
}

// Every tree learner, fitted, saved and loaded, answers as it did: on
// numeric, nominal and missing values, classification and regression.
func TestTreeModelsPersist(t *testing.T) {
	iris, wine, cancer, diabetes, mix := builtin(t, "iris"), builtin(t, "wine"), builtin(t, "breast_cancer"), builtin(t, "diabetes"), mixed(400, 3)
	cases := []struct {
		model    string
		settings map[string]string
		tr       engine.Train
	}{
		{"tree", nil, iris},
		{"tree", map[string]string{"prune": PruneNone, "criterion": Entropy}, wine},
		{"tree", map[string]string{"prune": PruneCostComplexity}, cancer},
		{"tree", map[string]string{"prune": PruneReducedError}, cancer},
		{"tree", nil, diabetes},
		{"tree", map[string]string{"prune": PruneNone}, mix},
		{"forest", map[string]string{"trees": "8"}, iris},
		{"forest", map[string]string{"trees": "4"}, diabetes},
		{"bagging", map[string]string{"trees": "5"}, mix},
		{"adaboost", map[string]string{"rounds": "10", "max_depth": "2"}, wine},
		{"adaboost", map[string]string{"rounds": "6"}, mix},
	}
	for _, c := range cases {
		fitted, loaded, _ := persisted(t, c.model, c.settings, c.tr)
		sameAnswers(t, c.model, fitted, loaded, c.tr.X)
	}
}

// mutate decodes a state, changes it and encodes it again.
func mutate(t *testing.T, state []byte, change func(s map[string]any)) []byte {
	t.Helper()
	var s map[string]any
	if err := json.Unmarshal(state, &s); err != nil {
		t.Fatal(err)
	}
	change(s)
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// at is the list under the keys path of s.
func at(s map[string]any, path ...string) []any {
	for _, k := range path[:len(path)-1] {
		s = s[k].(map[string]any)
	}
	return s[path[len(path)-1]].([]any)
}

// firstSplit is the first node after the root that splits.
func firstSplit(feature []any) int {
	for i := 1; i < len(feature); i++ {
		if feature[i].(float64) >= 0 {
			return i
		}
	}
	return 0
}

type mutation struct {
	name   string
	change func(s map[string]any)
	want   string // in the error
}

// refuses checks that every mutated state is an error that says what is
// wrong, and leaves the model unfitted.
func refuses(t *testing.T, model string, settings map[string]string, state []byte, muts []mutation) {
	t.Helper()
	bad := map[string][]byte{"truncated": state[:len(state)/2], "trailing data": append(slices.Clone(state), "{}"...)}
	want := map[string]string{"truncated": "truncated", "trailing data": "after the state's JSON object"}
	for _, m := range muts {
		bad[m.name], want[m.name] = mutate(t, state, m.change), m.want
	}
	for name, b := range bad {
		m := engine.MustBuild(model, settings)
		err := m.(engine.Persistent).UnmarshalState(b)
		if err == nil || !strings.Contains(err.Error(), want[name]) {
			t.Errorf("%s, %s: got %v, want an error saying %q", model, name, err, want[name])
			continue
		}
		if _, err := m.(engine.Predictor).Predict(mat.NewDense(1, 2, nil)); !errors.Is(err, engine.ErrNotFitted) {
			t.Errorf("%s, %s: a refused state leaves the model fitted (%v)", model, name, err)
		}
	}
}

// A tree state edited by hand (a loop, a child or a feature out of range,
// a wrong number of classes...) is refused with what is wrong, never a
// panic or a walk that never ends.
func TestTreeStateRefused(t *testing.T) {
	mix := mixed(300, 2)
	_, _, state := persisted(t, "tree", map[string]string{"prune": PruneNone}, mix)
	set := func(path []string, i int, v any) func(map[string]any) {
		return func(s map[string]any) { at(s, path...)[i] = v }
	}
	var s map[string]any
	_ = json.Unmarshal(state, &s)
	split := firstSplit(at(s, "tree", "feature"))
	refuses(t, "tree", nil, state, []mutation{
		{"child out of range", set([]string{"tree", "left"}, 0, 1e6), "not one of the nodes after it"},
		{"self loop", set([]string{"tree", "left"}, split, split), "not one of the nodes after it"},
		{"back to the root", set([]string{"tree", "right"}, split, 0), "not one of the nodes after it"},
		{"shared child", func(s map[string]any) { at(s, "tree", "right")[0] = at(s, "tree", "left")[0] }, "child of two splits"},
		{"feature too large", set([]string{"tree", "feature"}, 0, 2), "splits on feature 2"},
		{"wrong class count", func(s map[string]any) {
			d := s["data"].(map[string]any)
			d["classes"] = append(d["classes"].([]any), "maybe")
		}, "counts has"},
		{"not a class", func(s map[string]any) { at(s, "tree", "value")[0] = 7.0 }, "predicts class 7"},
		{"short list", func(s map[string]any) { s["tree"].(map[string]any)["threshold"] = at(s, "tree", "threshold")[1:] }, "threshold has"},
		{"missing flag", func(s map[string]any) { s["tree"].(map[string]any)["missing_left"] = "x" }, "missing_left has"},
		{"another model's state", func(s map[string]any) { s["trees"] = []any{} }, `unknown field "trees"`},
		{"missing flags short", func(s map[string]any) { s["data"].(map[string]any)["missing"] = []any{true} }, "missing has 1 entries for 2 features"},
		{"levels without names", func(s map[string]any) { at(s, "data", "levels")[1] = 9.0 }, "has 9 levels but 5 level names"},
		{"numeric feature with a level set", func(s map[string]any) {
			at(s, "data", "levels")[1] = 0.0
		}, "numeric feature"},
	})
	_, _, state = persisted(t, "forest", map[string]string{"trees": "3"}, mix)
	refuses(t, "forest", map[string]string{"trees": "3"}, state, []mutation{
		{"no trees", func(s map[string]any) { s["trees"], s["importances"] = []any{}, []any{} }, "no trees"},
		{"more trees than built with", func(s map[string]any) {
			s["trees"] = append(at(s, "trees"), at(s, "trees")...)
			s["importances"] = append(at(s, "importances"), at(s, "importances")...)
		}, "trees=3"},
		{"importances missing", func(s map[string]any) { s["importances"] = at(s, "importances")[1:] }, "2 importances for 3 trees"},
		{"self loop", func(s map[string]any) {
			tr := at(s, "trees")[1].(map[string]any)
			tr["left"].([]any)[0] = 0.0
		}, "tree 1: node 0 has child 0"},
		{"leaf values short", func(s map[string]any) {
			tr := at(s, "trees")[0].(map[string]any)
			tr["values"] = tr["values"].([]any)[2:]
		}, "values has"},
	})
	_, _, state = persisted(t, "adaboost", map[string]string{"rounds": "4"}, mix)
	refuses(t, "adaboost", map[string]string{"rounds": "4"}, state, []mutation{
		{"one class", func(s map[string]any) { s["data"].(map[string]any)["classes"] = []any{"no"} }, "1 classes"},
		{"votes missing", func(s map[string]any) { s["votes"] = at(s, "votes")[1:] }, "votes for"},
		{"feature too large", func(s map[string]any) { at(s, "trees")[0].(map[string]any)["feature"].([]any)[0] = 9.0 }, "tree 0: node 0 splits on feature 9"},
	})
}

// BenchmarkForestState writes and reads the state of a forest of 100
// trees on 20,000 rows (TEALAB_STATE_DATA names other data, e.g. the
// benchmarks' clf_20k_20.csv); state_bytes is the size of its JSON.
func BenchmarkForestState(b *testing.B) {
	source := cmp.Or(os.Getenv("TEALAB_STATE_DATA"), "moons:n=20000,noise=0.3")
	tr := builtin(b, source)
	f := engine.MustBuild("forest", map[string]string{"trees": "100", "jobs": "2"})
	if err := engine.Fit(context.Background(), f, tr, nil); err != nil {
		b.Fatal(err)
	}
	p := f.(engine.Persistent)
	state, err := p.MarshalState()
	if err != nil {
		b.Fatal(err)
	}
	b.Run("marshal", func(b *testing.B) {
		for range b.N {
			if _, err := p.MarshalState(); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(state)), "state_bytes")
		b.ReportMetric(float64(f.(*Forest).nodes), "nodes")
	})
	b.Run("unmarshal", func(b *testing.B) {
		for range b.N {
			if err := engine.MustBuild("forest", map[string]string{"trees": "100"}).(engine.Persistent).UnmarshalState(state); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// A forest's state takes a few tens of bytes a node: arrays, not nested
// objects (about 17 bytes a node for 100 deep trees on clf_20k_20; 26
// here, where the importances of 30 features weigh).
func TestForestStateIsCompact(t *testing.T) {
	f, _, state := persisted(t, "forest", map[string]string{"trees": "10"}, builtin(t, "breast_cancer"))
	if per := float64(len(state)) / float64(f.(*Forest).nodes); per > 40 {
		t.Errorf("%.0f bytes a node (%d bytes, %d nodes)", per, len(state), f.(*Forest).nodes)
	}
}
