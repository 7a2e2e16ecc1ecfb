package decomp

import (
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

func train(t testing.TB, name string) engine.Train {
	t.Helper()
	tab, err := datasets.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	d, err := tab.Dataset("", datasets.Reduction)
	if err != nil {
		t.Fatal(err)
	}
	return engine.Train{X: d.X, Features: d.FeatureNames(), Seed: 1}
}

// PCA's explained variance ratios on iris and wine are scikit-learn 1.2.1's
// to 1e-9 (engine/cluster/testdata/scipy_ref.py).
func TestPCAMatchesScikitLearn(t *testing.T) {
	b, err := os.ReadFile("../cluster/testdata/scipy_ref.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref struct {
		PCA map[string][]float64 `json:"pca"`
	}
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	for name, want := range ref.PCA {
		m := &PCA{}
		tr := train(t, name)
		if err := engine.Fit(context.Background(), m, tr, nil); err != nil {
			t.Fatal(err)
		}
		got := m.Components().Ratio
		for i, w := range want {
			if math.Abs(got[i]-w) > 1e-9 {
				t.Errorf("%s component %d: %v, scikit-learn %v", name, i+1, got[i], w)
			}
		}
		// Choosing k by a variance threshold keeps the fewest components
		// that reach it.
		m = &PCA{Variance: 0.9}
		engine.Fit(context.Background(), m, tr, nil)
		cum, k := 0.0, 0
		for _, w := range want {
			cum += w
			k++
			if cum >= 0.9 {
				break
			}
		}
		if got := len(m.Components().Ratio); got != k {
			t.Errorf("%s: %d components for 90%%, want %d", name, got, k)
		}
		Z, err := m.Transform(tr.X)
		if r, c := Z.Dims(); err != nil || r != tr.Rows() || c != k {
			t.Errorf("%s: transform %dx%d, %v", name, r, c, err)
		}
	}
}

// The notes' Johnson–Lindenstrauss k: ε = 0.5, δ = 0.05 gives
// ⌈2 ln 20 / (1/8 − 1/24)⌉ = 72; projected distances stay within 1 ± ε.
func TestRandomProjection(t *testing.T) {
	if k := JLDimensions(0.5, 0.05); k != 72 {
		t.Errorf("k = %d, want 72", k)
	}
	tr := train(t, "digits")
	rec := &stepRec{}
	m := &RandomProjection{K: 40}
	if err := engine.Fit(context.Background(), m, tr, rec); err != nil {
		t.Fatal(err)
	}
	if w := rec.s[0].Detail.(Reduction).WorstDistortion; !(w > 0 && w < 0.8) {
		t.Errorf("worst distortion %v", w)
	}
}

type stepRec struct{ s []engine.Step }

func (r *stepRec) Step(s engine.Step) error { r.s = append(r.s, s); return nil }

// allocated is how many bytes f allocates.
func allocated(f func()) float64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return float64(after.TotalAlloc - before.TotalAlloc)
}

// Fitting PCA and transforming rows centre a block of rows at a time, and a
// random projection measures its distortion on the pairs it draws: none
// makes a copy of the rows as large as the data (PCA held two,
// the projection one the size of its output).
func TestReductionsCopyNoRows(t *testing.T) {
	const n, d = 200_000, 4
	r := rand.New(rand.NewPCG(1, 2))
	X := mat.NewDense(n, d, nil)
	for i := range n {
		for j := range d {
			X.Set(i, j, r.NormFloat64()*float64(j+1))
		}
	}
	tr := engine.Train{X: X, Features: []string{"a", "b", "c", "d"}, Seed: 1}
	data := float64(n * d * 8)
	for _, scale := range []bool{false, true} {
		m := &PCA{K: 1, Scale: scale}
		var err error
		if a := allocated(func() { err = engine.Fit(context.Background(), m, tr, nil) }); err != nil || a > data/2 {
			t.Errorf("PCA scale=%v: Fit allocated %.2f times the data (err %v)", scale, a/data, err)
		}
		if a := allocated(func() { _, err = m.Transform(X) }); err != nil || a > data/4+data/2 {
			t.Errorf("PCA scale=%v: Transform to 1 of 4 columns allocated %.2f times the data (err %v)", scale, a/data, err)
		}
	}
	m := &RandomProjection{K: 1}
	var err error
	if a := allocated(func() { err = engine.Fit(context.Background(), m, tr, nil) }); err != nil || a > data/10 {
		t.Errorf("random projection: Fit allocated %.2f times the data (err %v)", a/data, err)
	}
}

// PCA kept every component unless asked. By default it keeps the
// fewest that explain 95% of the variance, as scikit-learn's
// n_components=0.95; an explicit k still wins. Wine standardised needs 10:
//
//	python3 -c "from sklearn.datasets import load_wine; from sklearn.preprocessing import StandardScaler;
//	  from sklearn.decomposition import PCA; X = StandardScaler().fit_transform(load_wine().data);
//	  print(PCA(n_components=0.95).fit(X).n_components_)"
//
// prints 10 (scikit-learn 1.2; the cumulative ratios reach 0.9424 at 9 and
// 0.9617 at 10).
func TestPCADefaultKeeps95PercentOfVariance(t *testing.T) {
	for _, tc := range []struct {
		settings map[string]string
		want     int
	}{
		{map[string]string{"scale": "true"}, 10},
		{map[string]string{"scale": "true", "k": "3"}, 3},
		{map[string]string{"scale": "true", "variance": "1"}, 13},
	} {
		_, _, m, err := engine.New("pca", tc.settings)
		if err != nil {
			t.Fatal(err)
		}
		if err := engine.Fit(context.Background(), m, train(t, "wine"), nil); err != nil {
			t.Fatal(err)
		}
		if got := len(m.(*PCA).Components().Ratio); got != tc.want {
			t.Errorf("pca %v on wine: %d components, want %d", tc.settings, got, tc.want)
		}
	}
}
