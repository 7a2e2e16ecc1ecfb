package datasets

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// Reference values in this file come from scikit-learn 1.2.1:
// run /usr/bin/python3 datasets/testdata/prep_ref.py to print them again.

var miss = math.NaN() // a missing value

func mkDense(rows [][]float64) *mat.Dense {
	m := mat.NewDense(len(rows), len(rows[0]), nil)
	for i, r := range rows {
		m.SetRow(i, r)
	}
	return m
}

func closeRows(t *testing.T, what string, got *mat.Dense, want [][]float64, tol float64) {
	t.Helper()
	r, c := got.Dims()
	if r != len(want) || c != len(want[0]) {
		t.Fatalf("%s: got %dx%d, want %dx%d", what, r, c, len(want), len(want[0]))
	}
	for i := range want {
		for j := range want[i] {
			if g := got.At(i, j); math.Abs(g-want[i][j]) > tol {
				t.Errorf("%s[%d][%d] = %.17g, want %.17g", what, i, j, g, want[i][j])
			}
		}
	}
}

func TestImputer(t *testing.T) {
	// SimpleImputer(strategy=...).fit(A).statistics_
	A := mkDense([][]float64{{1, 2, miss}, {3, miss, 6}, {miss, 8, 9}, {17, 10, 12}, {5, 1, 3}})
	for _, tc := range []struct {
		strategy string
		want     []float64
	}{
		{"", []float64{6.5, 5.25, 7.5}},
		{"mean", []float64{6.5, 5.25, 7.5}},
		{"median", []float64{4, 5, 7.5}},
	} {
		im := &Imputer{Strategy: tc.strategy}
		if err := im.Fit(A, nil); err != nil {
			t.Fatal(err)
		}
		if got := im.Fill(); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: fill %v, want %v", tc.strategy, got, tc.want)
		}
		Z, err := im.Apply(mkDense([][]float64{{miss, miss, 1}}))
		if err != nil {
			t.Fatal(err)
		}
		if got := Z.RawRowView(0); got[0] != tc.want[0] || got[1] != tc.want[1] || got[2] != 1 {
			t.Errorf("%q: applied %v", tc.strategy, got)
		}
	}
	if !math.IsNaN(A.At(0, 2)) {
		t.Error("Apply modified its input")
	}
}

func TestImputerNominalMostFrequent(t *testing.T) {
	// Hand-computed: level 2 appears twice, levels 0 and 1 once each; a tie
	// between 0 and 1 goes to the lower code.
	cols := []Column{{Name: "c", Kind: Nominal, Levels: []string{"a", "b", "c"}}, {Name: "t", Kind: Nominal, Levels: []string{"a", "b"}}}
	X := mkDense([][]float64{{2, 1}, {0, 0}, {miss, miss}, {2, 1}, {1, 0}})
	im := &Imputer{Strategy: "median"}
	if err := im.Fit(X, cols); err != nil {
		t.Fatal(err)
	}
	if got := im.Fill(); !reflect.DeepEqual(got, []float64{2, 0}) {
		t.Errorf("fill %v, want [2 0]", got)
	}
}

func TestImputerErrors(t *testing.T) {
	X := mkDense([][]float64{{1, miss}, {2, miss}})
	err := (&Imputer{}).Fit(X, []Column{{Name: "age"}, {Name: "income"}})
	if err == nil || !strings.Contains(err.Error(), `"income"`) {
		t.Errorf("all-missing column: err = %v, want one naming income", err)
	}
	if err := (&Imputer{Strategy: "mode"}).Fit(X, nil); err == nil || !strings.Contains(err.Error(), "mode") {
		t.Errorf("bad strategy: err = %v", err)
	}
	if _, err := (&Imputer{}).Apply(X); !errors.Is(err, ErrNotFitted) {
		t.Errorf("Apply before Fit: err = %v", err)
	}
	if err := (&Imputer{}).Fit(X, []Column{{Name: "a"}}); err == nil {
		t.Error("column count mismatch accepted")
	}
	im := &Imputer{}
	if err := im.Fit(mkDense([][]float64{{1, 2}}), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := im.Apply(mkDense([][]float64{{1, 2, 3}})); err == nil || !strings.Contains(err.Error(), "3 columns") {
		t.Errorf("wrong width at Apply: err = %v", err)
	}
}

func TestStandardizer(t *testing.T) {
	// StandardScaler().fit(B): mean_, scale_, transform([[3, 0, 6]]).
	B := mkDense([][]float64{{1, 10, 5}, {2, 20, 5}, {4, 40, 5}, {9, -3, 5}})
	var s Standardizer
	if _, err := s.Apply(B); !errors.Is(err, ErrNotFitted) {
		t.Errorf("Apply before Fit: err = %v", err)
	}
	if err := s.Fit(B); err != nil {
		t.Fatal(err)
	}
	wantMean := []float64{4.0, 16.75, 5.0}
	wantScale := []float64{3.082207001484488, 15.706288549495072, 1.0}
	for j := range wantMean {
		if math.Abs(s.Mean()[j]-wantMean[j]) > 1e-12 || math.Abs(s.Scale()[j]-wantScale[j]) > 1e-12 {
			t.Errorf("column %d: mean %g scale %g, want %g %g", j, s.Mean()[j], s.Scale()[j], wantMean[j], wantScale[j])
		}
	}
	Z, err := s.Apply(mkDense([][]float64{{3, 0, 6}}))
	if err != nil {
		t.Fatal(err)
	}
	closeRows(t, "standardised", Z, [][]float64{{-0.3244428422615251, -1.0664518194235315, 1.0}}, 1e-12)
}

func TestOneHot(t *testing.T) {
	// OneHotEncoder(handle_unknown="ignore") fitted on blue, red, red, blue and
	// applied to red, green (unseen), blue. Our level order is the declared
	// one; it is alphabetical here so the columns line up with scikit-learn's.
	// Level "green" is declared but never seen in training: no column.
	cols := []Column{{Name: "size"}, {Name: "colour", Kind: Nominal, Levels: []string{"blue", "green", "red"}}}
	train := mkDense([][]float64{{1, 0}, {2, 2}, {3, 2}, {4, 0}})
	var o OneHot
	if err := o.Fit(train, cols); err != nil {
		t.Fatal(err)
	}
	if got, want := o.Features(), []string{"size", "colour=blue", "colour=red"}; !reflect.DeepEqual(got, want) {
		t.Errorf("features %q, want %q", got, want)
	}
	Z, err := o.Apply(mkDense([][]float64{{5, 2}, {6, 1}, {7, 0}, {8, miss}, {9, 7}}))
	if err != nil {
		t.Fatal(err)
	}
	closeRows(t, "one-hot", Z, [][]float64{{5, 0, 1}, {6, 0, 0}, {7, 1, 0}, {8, 0, 0}, {9, 0, 0}}, 0)
}

func TestPolynomial(t *testing.T) {
	// PolynomialFeatures(degree=3, include_bias=False): names and values of
	// [2, 3, 5]. scikit-learn writes "a b", we write "a*b".
	P := &Polynomial{Degree: 3}
	if err := P.Fit(mkDense([][]float64{{0, 0, 0}}), []string{"a", "b", "c"}); err != nil {
		t.Fatal(err)
	}
	want := []string{"a", "b", "c", "a^2", "a b", "a c", "b^2", "b c", "c^2", "a^3", "a^2 b", "a^2 c", "a b^2", "a b c", "a c^2", "b^3", "b^2 c", "b c^2", "c^3"}
	for i := range want {
		want[i] = strings.ReplaceAll(want[i], " ", "*")
	}
	if got := P.Features(); !reflect.DeepEqual(got, want) {
		t.Errorf("names\n got %q\nwant %q", got, want)
	}
	Z, err := P.Apply(mkDense([][]float64{{2, 3, 5}}))
	if err != nil {
		t.Fatal(err)
	}
	closeRows(t, "poly", Z, [][]float64{{2.0, 3.0, 5.0, 4.0, 6.0, 10.0, 9.0, 15.0, 25.0, 8.0, 12.0, 20.0, 18.0, 30.0, 50.0, 27.0, 45.0, 75.0, 125.0}}, 0)

	for _, deg := range []int{0, 1} {
		P := &Polynomial{Degree: deg}
		if err := P.Fit(mkDense([][]float64{{1, 2}}), nil); err != nil {
			t.Fatal(err)
		}
		if got := P.Features(); !reflect.DeepEqual(got, []string{"x0", "x1"}) {
			t.Errorf("degree %d: features %q", deg, got)
		}
	}
	if err := (&Polynomial{Degree: 3}).Fit(mat.NewDense(1, 64, nil), nil); err == nil || !strings.Contains(err.Error(), "lower the degree") {
		t.Errorf("64 features, degree 3 (47,904 columns): err = %v", err)
	}
	if err := (&Polynomial{Degree: -1}).Fit(mat.NewDense(1, 2, nil), nil); err == nil {
		t.Error("negative degree accepted")
	}
}

func TestPolyCount(t *testing.T) {
	// C(d+p, p) - 1; Shewchuk, Concise Machine Learning, lecture 4, counts the quadric features of d = 3 as 9.
	for _, tc := range []struct{ d, p, want int }{{3, 2, 9}, {2, 3, 9}, {3, 3, 19}, {64, 2, 2144}, {1, 10, 10}} {
		if got := polyCount(tc.d, tc.p); got != tc.want {
			t.Errorf("polyCount(%d, %d) = %d, want %d", tc.d, tc.p, got, tc.want)
		}
	}
}

func TestConstantDropper(t *testing.T) {
	X := mkDense([][]float64{{1, 5, miss, miss, 3}, {2, 5, miss, 1, 3}, {3, 5, miss, 1, 3}})
	var c ConstantDropper
	if err := c.Fit(X, []string{"a", "b", "c", "d", "e"}); err != nil {
		t.Fatal(err)
	}
	if got := c.Features(); !reflect.DeepEqual(got, []string{"a", "d"}) {
		t.Errorf("kept %q, want [a d]", got)
	}
	Z, err := c.Apply(mkDense([][]float64{{9, 8, 7, 6, 5}}))
	if err != nil {
		t.Fatal(err)
	}
	closeRows(t, "dropped", Z, [][]float64{{9, 6}}, 0)
	err = c.Fit(mkDense([][]float64{{1, 2}, {1, 2}}), []string{"p", "q"})
	if err == nil || !strings.Contains(err.Error(), "p, q") {
		t.Errorf("all constant: err = %v", err)
	}
	if _, err := c.Apply(X); !errors.Is(err, ErrNotFitted) {
		t.Errorf("Apply after a failed Fit: err = %v", err)
	}
}

func TestPrepPipeline(t *testing.T) {
	// make_pipeline(SimpleImputer("mean"), VarianceThreshold(0),
	// PolynomialFeatures(2, include_bias=False), StandardScaler()) fitted on C.
	C := mkDense([][]float64{{1, 7, 2}, {2, 7, miss}, {4, 7, 1}, {miss, 7, 5}, {3, 7, 0}})
	p, _, err := fitApply(C, nil, PrepOptions{Standardize: true, Degree: 2})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := p.Features(), []string{"x0", "x2", "x0^2", "x0*x2", "x2^2"}; !reflect.DeepEqual(got, want) {
		t.Errorf("features %q, want %q", got, want)
	}
	Z, err := p.Apply(C)
	if err != nil {
		t.Fatal(err)
	}
	closeRows(t, "train", Z, [][]float64{
		{-1.5, 0.0, -1.2245489592298315, -0.5860090386731193, -0.3030615416575733},
		{-0.5, 0.0, -0.6367654587995124, -0.11720180773462385, -0.3030615416575733},
		{1.5, -0.5976143046671968, 1.714368542921764, -0.11720180773462385, -0.6277703362906877},
		{0.0, 1.7928429140015905, -0.19592783347677306, 1.8752289237539816, 1.9699000207742268},
		{0.5, -1.1952286093343936, 0.34287370858435284, -1.0548162696116146, -0.7360066011683924},
	}, 1e-12)
	Z, err = p.Apply(mkDense([][]float64{{miss, 9, 3}}))
	if err != nil {
		t.Fatal(err)
	}
	closeRows(t, "test", Z, [][]float64{{0.0, 0.5976143046671968, -0.19592783347677306, 0.7032108464077431, 0.23811978273095052}}, 1e-12)
	if math.IsNaN(C.At(1, 2)) == false {
		t.Error("Apply modified its input")
	}
}

func TestPrepNominal(t *testing.T) {
	// Hand-computed: the missing colour becomes the most frequent (red); the
	// one-hot column of a level seen in every row would be constant and is
	// dropped, as is the constant numeric column.
	cols := []Column{
		{Name: "w", Kind: Numeric},
		{Name: "colour", Kind: Nominal, Levels: []string{"red", "green", "blue"}},
		{Name: "k", Kind: Numeric},
		{Name: "shape", Kind: Nominal, Levels: []string{"round"}},
	}
	X := mkDense([][]float64{{1, 0, 4, 0}, {2, 1, 4, 0}, {3, miss, 4, 0}, {4, 0, 4, 0}})
	p, _, err := fitApply(X, cols, PrepOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := p.Features(), []string{"w", "colour=red", "colour=green"}; !reflect.DeepEqual(got, want) {
		t.Errorf("features %q, want %q", got, want)
	}
	Z, err := p.Apply(mkDense([][]float64{{5, 2, 0, 0}, {6, miss, 0, miss}, {7, 1, 0, 0}}))
	if err != nil {
		t.Fatal(err)
	}
	closeRows(t, "nominal", Z, [][]float64{{5, 0, 0}, {6, 1, 0}, {7, 0, 1}}, 0)
}

func TestPrepErrors(t *testing.T) {
	X := mkDense([][]float64{{1, 2}, {1, 2}})
	if _, _, err := fitApply(X, nil, PrepOptions{}); err == nil || !strings.Contains(err.Error(), "no features left") {
		t.Errorf("all constant: err = %v", err)
	}
	if _, _, err := fitApply(X, nil, PrepOptions{Impute: "mode"}); err == nil {
		t.Error("bad impute accepted")
	}
	if _, _, err := fitApply(X, nil, PrepOptions{Degree: -2}); err == nil {
		t.Error("bad degree accepted")
	}
	if _, _, err := fitApply(&mat.Dense{}, nil, PrepOptions{}); err == nil {
		t.Error("empty matrix accepted")
	}
	var p *Prep
	if _, err := p.Apply(X); !errors.Is(err, ErrNotFitted) {
		t.Errorf("nil Prep: err = %v", err)
	}
	if _, err := (&Prep{}).Apply(X); !errors.Is(err, ErrNotFitted) {
		t.Errorf("zero Prep: err = %v", err)
	}
	// A Table built by code can hold infinities (the loaders reject them):
	// the mean imputer and the standardiser would turn them into -Inf and
	// NaN everywhere, so fitting names the column.
	for _, v := range []float64{math.Inf(1), math.Inf(-1)} {
		Xinf := mkDense([][]float64{{1, 2}, {3, miss}, {5, v}})
		_, _, err := fitApply(Xinf, []Column{{Name: "a"}, {Name: "b"}}, PrepOptions{Standardize: true})
		if err == nil || !strings.Contains(err.Error(), `column "b"`) || !strings.Contains(err.Error(), "not a finite number") ||
			!strings.Contains(err.Error(), "row 3") {
			t.Errorf("%v in a feature: err = %v, want one naming column b, row 3", v, err)
		}
	}
	q, _, err := fitApply(mkDense([][]float64{{1, 2}, {3, 4}}), nil, PrepOptions{Standardize: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := q.Apply(mat.NewDense(1, 3, nil)); err == nil {
		t.Error("wrong width accepted")
	}
}

func BenchmarkPrepApply(b *testing.B) {
	// 100k x 50, the size of the bench's regression sets, standardised.
	n, d := 100_000, 50
	X := mat.NewDense(n, d, nil)
	raw := X.RawMatrix().Data
	for i := range raw {
		raw[i] = float64(i%97) * 0.5
	}
	p, _, err := fitApply(X, nil, PrepOptions{Standardize: true})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		if _, err := p.Apply(X); err != nil {
			b.Fatal(err)
		}
	}
}

// Models that split on levels or route missing values get them raw: nominal
// columns stay codes (not standardised), NaN stays NaN, an all-missing
// column is dropped, and Columns says which column is which.
func TestPrepKeepNominalAndMissing(t *testing.T) {
	cols := []Column{
		{Name: "size"},
		{Name: "colour", Kind: Nominal, Levels: []string{"red", "green", "blue"}},
		{Name: "empty"},
	}
	X := mkDense([][]float64{{1, 0, miss}, {miss, 2, miss}, {3, 1, miss}, {5, miss, miss}})
	p, _, err := fitApply(X, cols, PrepOptions{KeepNominal: true, KeepMissing: true, Standardize: true})
	if err != nil {
		t.Fatal(err)
	}
	Z, err := p.Apply(X)
	if err != nil {
		t.Fatal(err)
	}
	// size: mean 3, population sd sqrt(8/3) over the three values.
	sd := math.Sqrt(8.0 / 3)
	closeRows(t, "prepared", Z, [][]float64{{-2 / sd, 0}, {miss, 2}, {0, 1}, {2 / sd, miss}}, 1e-12)
	if got := p.Features(); !reflect.DeepEqual(got, []string{"size", "colour"}) {
		t.Errorf("features %v, want size, colour (empty dropped)", got)
	}
	want := []Column{{Name: "size"}, {Name: "colour", Kind: Nominal, Levels: []string{"red", "green", "blue"}}}
	if got := p.Columns(); !reflect.DeepEqual(got, want) {
		t.Errorf("columns %+v, want %+v", got, want)
	}
	// By default the all-missing column cannot be imputed.
	_, _, err = fitApply(X, cols, PrepOptions{})
	if err == nil || !strings.Contains(err.Error(), `"empty"`) {
		t.Errorf("imputing an all-missing column: err %v, want one naming it", err)
	}
}

// The fitted pipeline returns exactly what Apply gives for the training rows.
func TestFitApplyPrepEqualsApply(t *testing.T) {
	cols := []Column{{Name: "a"}, {Name: "b", Kind: Nominal, Levels: []string{"x", "y"}}, {Name: "c"}}
	X := mkDense([][]float64{{1, 0, 5}, {miss, 1, 5}, {3, 1, 5}, {4, miss, 5}})
	for _, opt := range []PrepOptions{{}, {Standardize: true}, {Standardize: true, KeepNominal: true, KeepMissing: true}, {Degree: 2}} {
		p, Z, err := fitApply(X, cols, opt)
		if err != nil {
			t.Fatal(err)
		}
		A, err := p.Apply(X)
		if err != nil {
			t.Fatal(err)
		}
		r, c := Z.Dims()
		ra, ca := A.Dims()
		same := r == ra && c == ca
		for i := range r * btoi(same) {
			for j := range c {
				if z, a := Z.At(i, j), A.At(i, j); z != a && !(math.IsNaN(z) && math.IsNaN(a)) {
					same = false
				}
			}
		}
		if !same {
			t.Errorf("%+v: fitting gave\n%v\nApply gave\n%v", opt, mat.Formatted(Z), mat.Formatted(A))
		}
	}
}

// Prepared from every row in order with nothing to change, the rows are the
// data's own (no copy as large as the data); any stage that
// changes a value, or a subset of the rows, gets a copy and leaves X alone.
func TestFitApplyPrepRowsShares(t *testing.T) {
	X := mkDense([][]float64{{1, 5, 0}, {2, 6, 0}, {4, 8, 0}})
	view := X.Slice(0, 3, 0, 2).(*mat.Dense) // a table's features, its target last
	data := func(m *mat.Dense) *float64 { return &m.RawMatrix().Data[0] }
	_, Z, err := FitApplyPrepRows(view, []int{0, 1, 2}, nil, PrepOptions{})
	if err != nil || data(Z) != data(X) {
		t.Errorf("every row, nothing to change: a copy (err %v)", err)
	}
	before := mat.DenseCopyOf(X)
	for _, c := range []struct {
		idx []int
		opt PrepOptions
	}{{[]int{0, 1, 2}, PrepOptions{Standardize: true}}, {[]int{0, 2}, PrepOptions{}}, {[]int{2, 1, 0}, PrepOptions{}}} {
		_, Z, err := FitApplyPrepRows(view, c.idx, nil, c.opt)
		if err != nil || data(Z) == data(X) {
			t.Errorf("rows %v, %+v: not a copy (err %v)", c.idx, c.opt, err)
		}
	}
	if !mat.Equal(X, before) {
		t.Errorf("the data changed:\n%v", mat.Formatted(X))
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Standardising scales the numeric columns and leaves a one-hot encoding's
// 0/1 indicators as they are.
func TestStandardizeLeavesIndicators(t *testing.T) {
	X := mat.NewDense(4, 2, []float64{1, 0, 2, 1, 3, 1, 4, 2})
	cols := []Column{{Name: "x"}, {Name: "c", Kind: Nominal, Levels: []string{"a", "b", "c"}}}
	p, Z, err := fitApply(X, cols, PrepOptions{Standardize: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Features(); len(got) != 4 || got[1] != "c=a" {
		t.Fatalf("features %v", got)
	}
	for i := range 4 {
		row := Z.RawRowView(i)
		for _, v := range row[1:] {
			if v != 0 && v != 1 {
				t.Fatalf("row %d: indicator %v", i, row)
			}
		}
	}
	if m, s := MeanStd([]float64{Z.At(0, 0), Z.At(1, 0), Z.At(2, 0), Z.At(3, 0)}); math.Abs(m) > 1e-12 || math.Abs(s-1) > 1e-12 {
		t.Errorf("numeric column: mean %v, std %v", m, s)
	}
}

// Reducing first: the prepared rows are the training rows' principal
// components (PC1 the direction of most variance, their covariance
// diagonal), and Apply maps new rows the same way.
func TestReduceFirst(t *testing.T) {
	tab, err := Open("iris")
	if err != nil {
		t.Fatal(err)
	}
	d, _ := tab.Dataset("", Auto)
	p, Z, err := fitApply(d.X, d.Features, PrepOptions{Reduce: 2})
	if err != nil {
		t.Fatal(err)
	}
	if f := p.Features(); len(f) != 2 || f[0] != "PC1" || f[1] != "PC2" {
		t.Fatalf("features %v", f)
	}
	n, _ := Z.Dims()
	var s00, s11, s01 float64
	for i := range n {
		a, b := Z.At(i, 0), Z.At(i, 1)
		s00, s11, s01 = s00+a*a, s11+b*b, s01+a*b
	}
	// iris' first two components hold variances 4.228 and 0.2427 (n−1).
	if v0, v1 := s00/float64(n-1), s11/float64(n-1); math.Abs(v0-4.2282) > 1e-3 || math.Abs(v1-0.24267) > 1e-4 || math.Abs(s01) > 1e-9 {
		t.Errorf("variances %v %v, covariance %v", v0, v1, s01)
	}
	Y, err := p.Apply(d.X)
	if err != nil || !mat.EqualApprox(Y, Z, 1e-12) {
		t.Errorf("Apply differs from the fit's rows: %v", err)
	}
	if _, _, err := fitApply(d.X, d.Features, PrepOptions{Reduce: 5}); err == nil {
		t.Error("5 components of 4 features accepted")
	}
}

// scaledIris is iris with its columns multiplied by factor (by column).
func scaledIris(t *testing.T, factor ...float64) *Dataset {
	t.Helper()
	tab, err := Open("iris")
	if err != nil {
		t.Fatal(err)
	}
	d, err := tab.Dataset("", Auto)
	if err != nil {
		t.Fatal(err)
	}
	d.X = mat.DenseCopyOf(d.X)
	n, _ := d.X.Dims()
	for i := range n {
		row := d.X.RawRowView(i)
		for j := range row {
			row[j] *= factor[j]
		}
	}
	return d
}

// Columns near 1e160 (squares overflow) and near 1e-170 (squares
// underflow) standardise to mean 0 and sd 1, to the values the columns
// give unscaled, and warn of nothing (they used to become 0 and
// a centred 1e-170 column).
func TestStandardiseExtremeMagnitudes(t *testing.T) {
	plain := scaledIris(t, 1, 1, 1, 1)
	d := scaledIris(t, 1e160, 1e-170, 1e160, 1e-170)
	_, want, err := fitApply(plain.X, plain.Features, PrepOptions{Standardize: true})
	if err != nil {
		t.Fatal(err)
	}
	p, Z, err := fitApply(d.X, d.Features, PrepOptions{Standardize: true})
	if err != nil {
		t.Fatal(err)
	}
	if w := p.Warnings(); len(w) != 0 {
		t.Errorf("warnings %q", w)
	}
	n, c := Z.Dims()
	if c != 4 {
		t.Fatalf("%d columns kept of 4: %v", c, p.Features())
	}
	for j := range c {
		sum, ss := 0.0, 0.0
		for i := range n {
			sum += Z.At(i, j)
		}
		mean := sum / float64(n)
		for i := range n {
			ss += (Z.At(i, j) - mean) * (Z.At(i, j) - mean)
		}
		if sd := math.Sqrt(ss / float64(n)); math.Abs(mean) > 1e-12 || math.Abs(sd-1) > 1e-12 {
			t.Errorf("column %s: mean %v, sd %v; want 0, 1", p.Features()[j], mean, sd)
		}
	}
	if !mat.EqualApprox(Z, want, 1e-12) {
		t.Error("the scaled columns standardise to other values than the columns unscaled")
	}
	if Y, err := p.ApplyRows(d.X, []int{0, 75, 149}); err != nil || !mat.EqualApprox(Y, GatherRows(Z, []int{0, 75, 149}), 1e-12) {
		t.Errorf("ApplyRows differs from the fit's rows: %v", err)
	}
}

// MeanStd sums in units of the largest magnitude at both ends of float64.
func TestMeanStdExtremeMagnitudes(t *testing.T) {
	for _, c := range []struct{ xs []float64 }{{[]float64{1e-170, 2e-170, 3e-170}}, {[]float64{1e160, 2e160, 3e160}}, {[]float64{1e-310, 2e-310, 3e-310}}} {
		unit := c.xs[0]
		m, s := MeanStd(c.xs)
		if math.Abs(m/unit-2) > 1e-12 || math.Abs(s/unit-math.Sqrt(2.0/3)) > 1e-12 {
			t.Errorf("MeanStd(%v) = %v, %v; want %v, %v", c.xs, m, s, 2*unit, math.Sqrt(2.0/3)*unit)
		}
	}
}

// A column that varies by less than rounding can tell from its mean cannot
// be standardised: the preprocessing names it in a warning; a column that
// varies by a little more is scaled without one.
func TestPrepWarnsOfUnscaledColumn(t *testing.T) {
	X := mat.NewDense(6, 2, nil)
	for i := range 6 {
		X.Set(i, 0, 1e6+float64(i%3)*1e-9) // a spread of 8e-16 of the mean
		X.Set(i, 1, 1e6+float64(i%3)*1e-3)
	}
	cols := []Column{{Name: "flat"}, {Name: "fine"}}
	p, Z, err := fitApply(X, cols, PrepOptions{Standardize: true})
	if err != nil {
		t.Fatal(err)
	}
	if w := p.Warnings(); len(w) != 1 || !strings.Contains(w[0], `column "flat"`) {
		t.Errorf("warnings %q, want one naming column \"flat\"", w)
	}
	if v := Z.At(2, 1); math.Abs(v-math.Sqrt(1.5)) > 1e-6 {
		t.Errorf("column fine standardised to %v at its largest, want %v", v, math.Sqrt(1.5))
	}
	if p, _, _ := fitApply(X, cols, PrepOptions{}); len(p.Warnings()) != 0 {
		t.Errorf("warnings without standardising: %q", p.Warnings())
	}
}

// fitApply fits the preprocessing on a copy of X, as the evaluation does on
// a training part, so that X stays as it was.
func fitApply(X *mat.Dense, cols []Column, opt PrepOptions) (*Prep, *mat.Dense, error) {
	if X.IsEmpty() {
		return FitApplyPrepOwned(X, cols, opt)
	}
	return FitApplyPrepOwned(mat.DenseCopyOf(X), cols, opt)
}
