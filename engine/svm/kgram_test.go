package svm

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/persisttest"
)

// kmGram is k(x_i, x_j) of every pair, from one product of the rows: on
// iris (150 rows: more than a block, not a multiple of 8) each entry equals
// Kernel.Eval to rounding, the matrix is exactly symmetric, and the RBF's
// diagonal is exactly 1.
func TestKernelMatrixIsEveryPair(t *testing.T) {
	tr := persisttest.Builtin(t, "iris", datasets.Classification)
	n, _ := tr.X.Dims()
	for _, k := range []Kernel{{Kind: Linear}, {Kind: RBF, Gamma: 0.3}, {Kind: Poly, Degree: 3, Gamma: 0.1, Coef0: 1}, {Kind: Sigmoid, Gamma: 0.01, Coef0: -1}} {
		K := kmGram(k, tr.X, nil)
		if r, c := K.Dims(); r != n || c != n {
			t.Fatalf("%s: %d × %d", k, r, c)
		}
		for i := range n {
			for j := range n {
				want := k.Eval(tr.X.RawRowView(i), tr.X.RawRowView(j))
				if got := K.At(i, j); math.Abs(got-want) > 1e-12*math.Max(1, math.Abs(want)) || got != K.At(j, i) {
					t.Fatalf("%s: K[%d][%d] = %g, K[%d][%d] = %g, k = %g", k, i, j, got, j, i, K.At(j, i), want)
				}
			}
			if k.Kind == RBF && K.At(i, i) != 1 {
				t.Fatalf("rbf: K[%d][%d] = %v", i, i, K.At(i, i))
			}
		}
	}
}

// Every kernel method saves its kept rows, coefficients and resolved
// kernel, and loads them to answer bit for bit as fitted; an edited state
// is refused.
func TestKernelMethodsPersist(t *testing.T) {
	iris := persisttest.Builtin(t, "iris", datasets.Classification)
	cancer := persisttest.Builtin(t, "breast_cancer", datasets.Classification)
	diabetes := persisttest.Builtin(t, "diabetes", datasets.Regression)
	set, drop, shorten, lengthen := persisttest.Set, persisttest.Drop, persisttest.Shorten, persisttest.Lengthen
	common := []persisttest.Mutation{shorten("rows"), shorten("rows.0"), shorten("coef"), shorten("coef.0"), lengthen("coef.0"),
		shorten("bias"), set("bias.0", "NaN"), set("kernel.kind", "laplacian"), set("kernel.gamma", -1.0), set("kernel.degree", 7.0),
		drop("kernel"), set("rows", []any{}), shorten("features")}
	clf := append([]persisttest.Mutation{shorten("present"), set("present.0", 9.0), set("present.1", 0.0), shorten("classes")}, common...)
	persisttest.Check(t, []persisttest.Case{
		{Name: "kperceptron", Train: iris, X: iris.X, Edits: append([]persisttest.Mutation{shorten("index"), set("label.0", 5.0), set("index.1", 0.0)}, clf...)},
		{Name: "kperceptron", Settings: map[string]string{"kernel": "poly", "degree": "2", "bias": "false"}, Train: cancer, X: cancer.X,
			Edits: append([]persisttest.Mutation{lengthen("label"), set("bias.0", 1.0)}, clf...)},
		{Name: "klogistic", Settings: map[string]string{"epochs": "20"}, Train: iris, X: iris.X, Edits: clf},
		{Name: "klogistic", Settings: map[string]string{"epochs": "5", "kernel": "sigmoid", "gamma": "0.01"}, Train: cancer, X: cancer.X,
			Edits: append([]persisttest.Mutation{set("kernel.gamma", 0.5)}, clf...)},
		{Name: "kridge", Train: diabetes, X: diabetes.X, Edits: common},
		{Name: "kridge", Settings: map[string]string{"kernel": "linear", "center_y": "false"}, Train: diabetes, X: diabetes.X,
			Edits: append([]persisttest.Mutation{set("bias.0", 1.0)}, common...)},
	})
}

// The kernel matrices kridge and klogistic hold are refused before they
// are made when the memory cannot hold them (here 200,000 rows in 2 GB);
// the kernel perceptron, which computes rows as it needs them, asks for
// its cache only.
func TestKernelMatrixRefusedWhenTooLarge(t *testing.T) {
	t.Setenv(engine.MemoryEnv, "2GB")
	shape := engine.Shape{Rows: 200_000, Cols: 2, Classes: 2}
	X := mat.NewDense(200_000, 2, nil)
	y := make([]float64, 200_000)
	for i := range y {
		y[i] = float64(i % 2)
		X.Set(i, 0, float64(i))
	}
	for _, name := range []string{"kridge", "klogistic"} {
		spec, v, m, err := engine.New(name, nil)
		if err != nil {
			t.Fatal(err)
		}
		need := spec.Memory(shape, v)
		if need.Bytes != 8*200_000*200_000 || need.What != "a 200000 x 200000 kernel matrix" {
			t.Errorf("%s: estimate %v", name, need)
		}
		err = engine.Fit(t.Context(), m, engine.Train{X: X, Y: y, Classes: []string{"a", "b"}}, nil)
		if want := name + ": a 200000 x 200000 kernel matrix needs 320 GB, more than the 2 GB $TEALAB_MEMORY allows"; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s on 200,000 rows: %v\nwant %q", name, err, want)
		}
	}
	spec, v, _, _ := engine.New("kperceptron", nil)
	if need := spec.Memory(shape, v); need.Bytes > float64(kpCacheMax) {
		t.Errorf("kperceptron: estimate %v, above its cache of %d bytes", need, kpCacheMax)
	}
}
