package models

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/internal/sweep"
)

// On real data with nominal attributes and missing values (Weka's labor,
// vote, breast-cancer, credit-g) the trees, forest, boosting and k-NN reach
// accuracy comparable to Weka's J48, RandomForest, AdaBoostM1 and IBk under
// 10-fold CV: no more than 5 points below (testdata/weka/README.md).
func TestComparableToWekaLong(t *testing.T) {
	sweep.Skip(t, "10-fold CV of four models on four data sets")
	b, err := os.ReadFile("testdata/weka/weka_ref.tsv")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	cols := strings.Split(lines[0], "\t")
	ours := map[string]struct {
		model  string
		params map[string]string
	}{
		"J48":          {"tree", map[string]string{"prune": "reduced-error"}},
		"RandomForest": {"forest", nil},
		"IBk1":         {"knn", map[string]string{"k": "1"}},
		"IBk5":         {"knn", nil},
		"AdaBoostM1":   {"adaboost", nil},
	}
	for _, line := range lines[1:] {
		f := strings.Split(line, "\t")
		tab, err := datasets.LoadFile("testdata/weka/" + f[0] + ".arff")
		if err != nil {
			t.Fatal(err)
		}
		d, err := tab.Dataset("", datasets.Auto)
		if err != nil {
			t.Fatal(err)
		}
		for c := 1; c < len(cols); c++ {
			want, _ := strconv.ParseFloat(f[c], 64)
			o := ours[cols[c]]
			spec, err := engine.Lookup(o.model)
			if err != nil {
				t.Fatal(err)
			}
			v, err := spec.Parse(o.params)
			if err != nil {
				t.Fatal(err)
			}
			opt := eval.DefaultOptions()
			opt.Folds = 10
			res, err := eval.Run(context.Background(), d, spec, v, opt, nil)
			if err != nil {
				t.Fatalf("%s on %s: %v", o.model, f[0], err)
			}
			got := res.Metrics["accuracy"]
			if got < want-0.05 {
				t.Errorf("%s %v on %s: 10-fold accuracy %.4f, Weka's %s %.4f", o.model, o.params, f[0], got, cols[c], want)
			} else {
				t.Logf("%s %v on %s: %.4f, Weka's %s %.4f", o.model, o.params, f[0], got, cols[c], want)
			}
		}
	}
}
