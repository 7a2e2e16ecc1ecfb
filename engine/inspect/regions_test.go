package inspect

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	_ "github.com/tealab/tealab/engine/models"
	"gonum.org/v1/gonum/mat"
)

func openDataset(t testing.TB, source, target string) *datasets.Dataset {
	t.Helper()
	tb, err := datasets.Open(source)
	if err != nil {
		t.Fatal(err)
	}
	d, err := tb.Dataset(target, datasets.Auto)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestProject2DIris(t *testing.T) {
	// Reference: engine/inspect/testdata/pca_iris.py (scikit-learn 1.2.1 StandardScaler +
	// PCA, signs fixed so each direction's largest loading is positive).
	d := openDataset(t, "iris", "")
	pl, err := Project2D(d)
	if err != nil {
		t.Fatal(err)
	}
	if !pl.Projected || pl.XLabel != "PC1" || pl.YLabel != "PC2" {
		t.Fatalf("Plane = %+v, want a PCA projection", pl)
	}
	if math.Abs(pl.VarExplained-0.9581320720000165) > 1e-9 {
		t.Errorf("variance kept = %.10f, want 0.9581320720", pl.VarExplained)
	}
	want := map[int][2]float64{
		0:   {-2.26470281, 0.4800266},
		50:  {1.10178118, 0.86297242},
		149: {0.96065603, -0.02433167},
	}
	for row, w := range want {
		for c := range 2 {
			if got := pl.XY.At(row, c); math.Abs(got-w[c]) > 1e-6 {
				t.Errorf("row %d PC%d = %.8f, want %.8f", row, c+1, got, w[c])
			}
		}
	}
}

func TestProject2DCases(t *testing.T) {
	for _, tc := range []struct {
		name, source, target string
		projected            bool
		err                  bool
	}{
		{"two features are their own Plane", "moons", "", false, false},
		{"one feature has no Plane", "cubic", "", false, true},
		{"clustering of two columns is a projection", "moons", datasets.NoTarget, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := openDataset(t, tc.source, tc.target)
			pl, err := Project2D(d)
			if tc.err {
				if err == nil {
					t.Fatal("want an error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if pl.Projected != tc.projected {
				t.Errorf("projected = %v, want %v", pl.Projected, tc.projected)
			}
			if r, c := pl.XY.Dims(); r != d.Rows() || c != 2 {
				t.Errorf("XY is %dx%d, want %dx2", r, c, d.Rows())
			}
		})
	}
}

func TestProject2DImputesMissing(t *testing.T) {
	d := openDataset(t, "iris", "")
	d.X.Set(3, 0, math.NaN())
	pl, err := Project2D(d)
	if err != nil {
		t.Fatal(err)
	}
	for i := range d.Rows() {
		if math.IsNaN(pl.XY.At(i, 0)) || math.IsNaN(pl.XY.At(i, 1)) {
			t.Fatalf("row %d projects to NaN", i)
		}
	}
}

func TestComputeRegions(t *testing.T) {
	d := openDataset(t, "moons", "")
	spec, err := engine.Lookup("logistic")
	if err != nil {
		t.Fatal(err)
	}
	rm, err := Regions(context.Background(), d, spec, spec.Defaults(), 1, spec.Standardize, Plane{}, fixedGrid(40, 12))
	if err != nil {
		t.Fatal(err)
	}
	if len(rm.Grid) != 12 || len(rm.Grid[0]) != 40 {
		t.Fatalf("grid %dx%d, want 12 rows of 40", len(rm.Grid), len(rm.Grid[0]))
	}
	// A linear model splits the moons into two half-planes: both classes
	// appear in the grid, and most points lie in their own class's region.
	seen := map[int]bool{}
	for _, row := range rm.Grid {
		for _, c := range row {
			seen[c] = true
		}
	}
	if !seen[0] || !seen[1] {
		t.Errorf("grid classes %v, want both 0 and 1", seen)
	}
	right := 0
	for i, p := range rm.Pred {
		if p == rm.Truth[i] {
			right++
		}
	}
	if acc := float64(right) / float64(len(rm.Pred)); acc < 0.8 {
		t.Errorf("training accuracy of the 2-D refit %.2f, want >= 0.8", acc)
	}
	if rm.XMin >= rm.XMax || rm.YMin >= rm.YMax {
		t.Errorf("bad bounds %+v", rm)
	}
	// Regression has no regions.
	if _, err := Regions(context.Background(), openDataset(t, "sine", ""), spec, spec.Defaults(), 1, spec.Standardize, Plane{}, fixedGrid(4, 4)); err == nil {
		t.Error("regression: want an error")
	}
	// A cancelled context stops the fit.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Regions(ctx, d, spec, spec.Defaults(), 1, spec.Standardize, Plane{}, fixedGrid(40, 12)); err == nil {
		t.Error("cancelled: want an error")
	}
}

// A model whose predictions are not class codes (NaN, fractions, beyond
// int) must not become indices: they are drawn as unlabelled.
func TestRegionsClassCodes(t *testing.T) {
	for _, tc := range []struct {
		v     float64
		limit int
		want  int
	}{
		{0, 3, 0}, {2, 3, 2}, {3, 3, -1}, {-1, 3, -1}, {1.5, 3, -1},
		{math.NaN(), 3, -1}, {math.Inf(1), 3, -1}, {1e300, 3, -1}, {-1e300, 3, -1},
	} {
		if got := classCode(tc.v, tc.limit); got != tc.want {
			t.Errorf("classCode(%v, %d) = %d, want %d", tc.v, tc.limit, got, tc.want)
		}
	}
	d := openDataset(t, "iris", datasets.NoTarget)
	rm, err := Regions(context.Background(), d, wildSpec(), nil, 1, false, Plane{}, fixedGrid(8, 4))
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range rm.Pred {
		if want := []int{-1, -1, -1, 1}[i%4]; p != want {
			t.Fatalf("prediction %d coded %d, want %d", i, p, want)
		}
	}
	if len(rm.Classes) != 2 {
		t.Errorf("%d clusters named, want 2 (0 and 1)", len(rm.Classes))
	}
	// Features too large for a grid: an error, not NaN bounds.
	tb := &datasets.Table{Name: "huge", Columns: []datasets.Column{{Name: "a"}, {Name: "b"}},
		Data: mat.NewDense(3, 2, []float64{-1.7e308, 1, 1.7e308, 2, 0, 3})}
	hd, err := tb.Dataset(datasets.NoTarget, datasets.Auto)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Regions(context.Background(), hd, wildSpec(), nil, 1, false, Plane{}, fixedGrid(8, 4)); err == nil ||
		!strings.Contains(err.Error(), "too large") {
		t.Errorf("huge features: err %v", err)
	}
}

// wildSpec is a clusterer predicting NaN, 1.5, 1e300 and 1 in turn.
func wildSpec() *engine.Spec {
	return &engine.Spec{Name: "wild", Title: "wild", Tasks: []engine.Task{datasets.Clustering},
		New: func(engine.Values) (engine.Model, error) { return wildModel{}, nil }}
}

type wildModel struct{}

func (wildModel) Fit(ctx context.Context, d engine.Train, rec engine.Recorder) error { return nil }

func (wildModel) Predict(X mat.Matrix) ([]float64, error) {
	r, _ := X.Dims()
	out := make([]float64, r)
	for i := range out {
		out[i] = []float64{math.NaN(), 1.5, 1e300, 1}[i%4]
	}
	return out, nil
}

// The map is shaded by probability where the model has them, and
// has a square aspect (a cell is twice as tall as wide).
func TestRegionsConfidenceAndAspect(t *testing.T) {
	d := openDataset(t, "moons", "")
	spec, err := engine.Lookup("logistic")
	if err != nil {
		t.Fatal(err)
	}
	rm, err := Regions(context.Background(), d, spec, spec.Defaults(), 1, spec.Standardize, Plane{}, fixedGrid(40, 12))
	if err != nil {
		t.Fatal(err)
	}
	if len(rm.Conf) != 12 || len(rm.Conf[0]) != 40 {
		t.Fatalf("confidence grid missing or misshapen: %d rows", len(rm.Conf))
	}
	lo, hi := 1.0, 0.0
	for _, row := range rm.Conf {
		for _, p := range row {
			lo, hi = min(lo, p), max(hi, p)
		}
	}
	if lo < 0.5 || hi > 1 || hi-lo < 0.3 {
		t.Errorf("confidence in [%v, %v]: a binary model's winning probability spans [0.5, 1]", lo, hi)
	}
	perCol, perRow := (rm.XMax-rm.XMin)/40, (rm.YMax-rm.YMin)/12
	if math.Abs(perRow-2*perCol) > 1e-9*perRow {
		t.Errorf("aspect: %v per column, %v per row; want a row to span twice a column", perCol, perRow)
	}
	pl, err := PlaneOf(d, 1, 0)
	if err != nil || pl.XLabel != "x1" || pl.YLabel != "x0" {
		t.Errorf("PlaneOf(1, 0): %v %+v", err, pl)
	}
}

// The map standardises the plane as the run did: k-means on wine's raw
// alcohol (11-15) and proline (278-1680) cuts by proline alone, so along
// a grid row (one proline value) the cluster never changes; standardised,
// alcohol counts too.
func TestRegionsStandardizeAsTheRun(t *testing.T) {
	d := openDataset(t, "wine", "")
	pl, err := PlaneOf(d, 0, 12)
	if err != nil || pl.XLabel != "alcohol" || pl.YLabel != "proline" {
		t.Fatalf("plane %q x %q: %v", pl.XLabel, pl.YLabel, err)
	}
	spec, err := engine.Lookup("kmeans")
	if err != nil {
		t.Fatal(err)
	}
	v, err := spec.Parse(map[string]string{"k": "3"})
	if err != nil {
		t.Fatal(err)
	}
	varying := func(std bool) int {
		rm, err := Regions(context.Background(), d, spec, v, 1, std, pl, fixedGrid(30, 12))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, row := range rm.Grid {
			for _, c := range row {
				if c != row[0] {
					n++
					break
				}
			}
		}
		return n
	}
	if raw, std := varying(false), varying(true); raw > 1 || std < 3 {
		t.Errorf("grid rows whose cluster changes along alcohol: %d raw (want at most 1), %d standardised (want 3 or more)", raw, std)
	}
}

// The plane standardises columns near 1e160 and 1e-170 as it does the same
// columns near 1 (their squares overflowed or underflowed, and
// the columns became 0 or stayed near 1e-170).
func TestStandardizeColsExtremeMagnitudes(t *testing.T) {
	d := openDataset(t, "iris", "")
	plain := mat.DenseCopyOf(d.X)
	wild := mat.DenseCopyOf(d.X)
	factor := []float64{1e160, 1e-170, 1e160, 1e-170}
	n, _ := wild.Dims()
	for i := range n {
		row := wild.RawRowView(i)
		for j := range row {
			row[j] *= factor[j]
		}
	}
	mean, scale := standardizeCols(wild)
	plainMean, plainScale := standardizeCols(plain)
	if !mat.EqualApprox(wild, plain, 1e-12) {
		t.Error("scaled columns standardise to other values than the columns unscaled")
	}
	for j, f := range factor {
		if math.Abs(mean[j]/f-plainMean[j]) > 1e-12 || math.Abs(scale[j]/f-plainScale[j]) > 1e-12 {
			t.Errorf("column %d: mean %v, scale %v; want %v, %v times %v", j, mean[j], scale[j], plainMean[j], plainScale[j], f)
		}
	}
}

// fixedGrid is a grid of cols x rows whatever the map.
func fixedGrid(cols, rows int) GridSize {
	return func(*RegionMap) (int, int) { return cols, rows }
}
