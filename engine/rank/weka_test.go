package rank

import (
	"bufio"
	"context"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tealab/tealab/datasets"
)

// wekaMethods maps tealab's methods to the Weka evaluators whose merits
// testdata/weka holds (made by testdata/gen.sh).
var wekaMethods = map[string]string{
	"info_gain":  "InfoGainAttributeEval",
	"gain_ratio": "GainRatioAttributeEval",
	"chi2":       "ChiSquaredAttributeEval",
	"relieff":    "ReliefFAttributeEval",
}

// builtin opens a built-in set, or testdata/iris_missing.arff.
func builtin(t testing.TB, name string) *datasets.Dataset {
	t.Helper()
	if name == "iris_missing" {
		name = "testdata/iris_missing.arff"
	}
	tab, err := datasets.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	d, err := tab.Dataset("", datasets.Auto)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// wekaMerits reads testdata/weka/<evaluator>_<data>.merits: one merit
// per attribute, in the data's order.
func wekaMerits(t *testing.T, ev, data string) []float64 {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "weka", ev+"_"+data+".merits"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []float64
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		fields := strings.Fields(line)
		v, err := strconv.ParseFloat(fields[len(fields)-1], 64)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}

// wekaOrder is the order of the merits, highest first, ties by index (as
// Weka's Ranker lists distinct merits).
func wekaOrder(m []float64) []int {
	r := Ranking{Scores: m, Notes: make([]string, len(m))}
	r.Ranks = ranks(m, r.Notes)
	return r.Order()
}

// Information gain, gain ratio, chi-squared and ReliefF give Weka 3.6's
// merits (to 1e-6 relative) and so its ranking: the top 10 of
// breast_cancer, every feature of iris and wine, and of iris_missing,
// whose missing values and nominal columns Weka handles its own way (a
// constant column: 0, last, with a note).
func TestWekaReferences(t *testing.T) {
	for _, data := range []string{"iris", "wine", "breast_cancer", "iris_missing"} {
		d := builtin(t, data)
		for _, method := range []string{"info_gain", "gain_ratio", "chi2", "relieff"} {
			want := wekaMerits(t, wekaMethods[method], data)
			if len(want) != len(d.Features) {
				t.Fatalf("%s %s: %d Weka merits for %d features", data, method, len(want), len(d.Features))
			}
			rs, err := Rank(context.Background(), d, []string{method}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			got := rs[0]
			for j, w := range want {
				if math.Abs(got.Scores[j]-w) > 1e-6*max(1, math.Abs(w)) {
					t.Errorf("%s %s %s: %.10g, Weka %.10g", data, method, got.Features[j], got.Scores[j], w)
				}
			}
			if data == "iris_missing" && (got.Ranks[5] != 6 || got.Notes[5] == "") {
				t.Errorf("%s %s: the constant column ranks %d, note %q", data, method, got.Ranks[5], got.Notes[5])
			}
			top := len(want)
			if data == "breast_cancer" {
				top = 10
			}
			wo, gotTop := wekaOrder(want)[:top], got.Order()[:top]
			for k := range wo {
				if wo[k] != gotTop[k] {
					t.Errorf("%s %s: rank %d is %s, Weka's %s", data, method, k+1, got.Features[gotTop[k]], got.Features[wo[k]])
				}
			}
		}
	}
}

// ReliefF on a numeric target is Weka's RReliefF: diabetes's weights
// within 1e-6 relative, and so its whole ranking.
func TestWekaRReliefF(t *testing.T) {
	d := builtin(t, "diabetes")
	want := wekaMerits(t, "ReliefFAttributeEval", "diabetes")
	rs, err := Rank(context.Background(), d, []string{"relieff"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := rs[0]
	for j, w := range want {
		if math.Abs(got.Scores[j]-w) > 1e-6*max(1e-3, math.Abs(w)) {
			t.Errorf("%s: %.10g, Weka %.10g", got.Features[j], got.Scores[j], w)
		}
	}
	for k, j := range wekaOrder(want) {
		if got.Ranks[j] != k+1 {
			t.Errorf("%s ranks %d, Weka %d", got.Features[j], got.Ranks[j], k+1)
		}
	}
}

// wekaRanked reads the attribute indices (0-based) of Weka's own Ranker
// printout, testdata/weka/<evaluator>_<data>.ranked, in its order.
func wekaRanked(t *testing.T, ev, data string) []int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "weka", ev+"_"+data+".ranked"))
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) != 3 {
			continue
		}
		if _, err := strconv.ParseFloat(f[0], 64); err != nil {
			continue
		}
		i, err := strconv.Atoi(f[1])
		if err != nil {
			continue
		}
		out = append(out, i-1)
	}
	return out
}

// The order of Weka's own printed ranking (its Ranker, as a person runs
// it): the top 10 of breast_cancer, every feature of the others, except
// among features whose merits tie (Weka lists those in its own order).
func TestWekaRankerOrder(t *testing.T) {
	for _, data := range []string{"iris", "wine", "breast_cancer", "iris_missing", "diabetes"} {
		d := builtin(t, data)
		for _, method := range []string{"info_gain", "gain_ratio", "chi2", "relieff"} {
			if data == "diabetes" && method != "relieff" {
				continue
			}
			ranked := wekaRanked(t, wekaMethods[method], data)
			if len(ranked) != len(d.Features) {
				t.Fatalf("%s %s: %d ranked, %d features", data, method, len(ranked), len(d.Features))
			}
			rs, err := Rank(context.Background(), d, []string{method}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			r := rs[0]
			top := len(ranked)
			if data == "breast_cancer" {
				top = 10
			}
			for k, j := range ranked[:top] {
				if got := r.Order()[k]; got != j && r.Scores[got] != r.Scores[j] {
					t.Errorf("%s %s: rank %d is %s, Weka's %s", data, method, k+1, r.Features[got], r.Features[j])
				}
			}
		}
	}
}
