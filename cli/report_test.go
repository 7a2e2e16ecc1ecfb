package cli

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
)

// A hold-out is labelled by what it did, and a split that cannot mean much
// says so.
func TestHoldoutSaysWhatItDid(t *testing.T) {
	out, errOut, status := run(t, "train", "--data", "iris", "--model", "logistic", "--split", "0.999")
	if status != 0 || !strings.Contains(out, "2/98 hold-out (3 training, 147 test rows)") || strings.Contains(out, "0.1/99.9") ||
		!strings.Contains(out, "the training part has 3 rows") {
		t.Errorf("--split 0.999: status %d\n%s%s", status, out, errOut)
	}
	out, _, _ = run(t, "train", "--data", "iris", "--model", "logistic", "--split", "0.001")
	if !strings.Contains(out, "(149 training, 1 test rows)") || !strings.Contains(out, "the test part has 1 row") {
		t.Errorf("--split 0.001:\n%s", out)
	}
	out, _, _ = run(t, "train", "--data", "iris", "--model", "logistic")
	if !strings.Contains(out, "stratified 80/20 hold-out ·") || strings.Contains(out, "warning") {
		t.Errorf("default split:\n%s", out)
	}
}

// A newline or a terminal escape in a level or a class name is escaped in
// every table.
func TestTablesEscapeControlCharacters(t *testing.T) {
	path := writeCSV(t, "esc.csv", "a,c,y\n1,\"x\ny\",\"p\x1b[31m\"\n2,z,q\n3,z,\"p\x1b[31m\"\n4,x,q\n5,x,\"p\x1b[31m\"\n6,z,q\n7,x,\"p\x1b[31m\"\n8,z,q\n")
	out, errOut, status := run(t, "describe", "--data", path)
	if status != 0 || !strings.Contains(out, `x\ny`) || strings.Contains(out, "\x1b") {
		t.Errorf("describe: status %d\n%q%s", status, out, errOut)
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "y\"") || line == "y, z, x" {
			t.Errorf("a level broke the table: %q", out)
		}
	}
	out, errOut, status = run(t, "train", "--data", path, "--model", "gnb", "--cv", "2")
	if status != 0 || strings.Contains(out, "\x1b") || !strings.Contains(out, `p\x1b[31m`) {
		t.Errorf("train: status %d\n%q%s", status, out, errOut)
	}
}

// Many classes: the text report lists the largest confusions and a
// truncated per-class table, saying so, --json keeps everything, and a
// warning says the classes approach the rows.
func TestManyClassesReport(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("a,b,y\n")
	for i := range 600 {
		fmt.Fprintf(&b, "%d.%d,%d,c%d\n", i%17, i%5, i%11, i%200)
	}
	path := writeCSV(t, "k200.csv", b.String())
	out, errOut, status := run(t, "train", "--data", path, "--model", "gnb")
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	for _, want := range []string{"200 classes for 600 rows", "too many to draw", "the largest confusions", "the 24 of 200 classes"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if len(out) > 8000 {
		t.Errorf("the report is %d bytes", len(out))
	}
	out, _, _ = run(t, "train", "--data", path, "--model", "gnb", "--json")
	var r struct {
		Confusion struct{ Labels []string } `json:"confusion"`
		PerClass  []any                     `json:"per_class"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || len(r.Confusion.Labels) != 200 || len(r.PerClass) != 200 {
		t.Errorf("--json: %v, %d labels, %d per class", err, len(r.Confusion.Labels), len(r.PerClass))
	}
}

// A depth-3 tree on iris prints readable rules, and
// --json has the rules as strings, the tree as nested nodes, and accuracy
// of at least 0.93.
func TestTreeRulesAndJSON(t *testing.T) {
	args := []string{"train", "--data", "iris", "--model", "tree", "--param", "max_depth=3"}
	out, errOut, status := run(t, args...)
	if status != 0 || !strings.Contains(out, "rules, one per leaf") || !strings.Contains(out, "IF petal_length_cm <= 2.45 THEN setosa (40 rows, 100%)") {
		t.Fatalf("status %d\n%s%s", status, out, errOut)
	}
	out, _, _ = run(t, append(args, "--json")...)
	var r struct {
		Metrics map[string]float64 `json:"metrics"`
		Rules   []string           `json:"rules"`
		Tree    struct {
			Depth int `json:"depth"`
			Root  struct {
				Samples  int               `json:"samples"`
				Children []json.RawMessage `json:"children"`
			} `json:"root"`
		} `json:"tree"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Metrics["accuracy"] < 0.93 || len(r.Rules) < 3 || !strings.HasPrefix(r.Rules[0], "IF ") ||
		r.Tree.Depth != 3 || r.Tree.Root.Samples != 120 || len(r.Tree.Root.Children) != 2 {
		t.Errorf("accuracy %v, rules %v, tree depth %d root %d rows %d children", r.Metrics["accuracy"], r.Rules, r.Tree.Depth, r.Tree.Root.Samples, len(r.Tree.Root.Children))
	}
}

// Average linkage on iris agrees
// with the species (ARI > 0.7), --json has the 149 merges as scipy writes
// them, the text draws a dendrogram; PCA reports every component's share
// of the variance as scikit-learn does; spectral clustering separates
// circles, k-means does not.
func TestClusteringAndReductionReports(t *testing.T) {
	t.Parallel()
	out, _, status := run(t, "train", "--data", "iris", "--model", "hclust", "--param", "linkage=average", "--param", "k=3", "--json")
	var r struct {
		Metrics    map[string]float64 `json:"metrics"`
		Linkage    [][4]float64       `json:"linkage"`
		Components struct {
			Ratio []float64 `json:"explained_variance_ratio"`
		} `json:"components"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || status != 0 {
		t.Fatalf("status %d: %v", status, err)
	}
	if r.Metrics["ari"] <= 0.7 || len(r.Linkage) != 149 || r.Linkage[148][3] != 150 {
		t.Errorf("ari %v, %d merges", r.Metrics["ari"], len(r.Linkage))
	}
	out, _, _ = run(t, "train", "--data", "iris", "--model", "hclust", "--param", "k=3")
	if !strings.Contains(out, "dendrogram (average linkage") || !strings.Contains(out, "┘") {
		t.Errorf("no dendrogram:\n%s", out)
	}
	out, _, _ = run(t, "train", "--data", "iris", "--model", "pca", "--param", "variance=1", "--json")
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	want := []float64{0.9246187232017271, 0.05306648311706782, 0.017102609807929763, 0.005212183873275374} // scikit-learn 1.2.1
	if len(r.Components.Ratio) != 4 {
		t.Fatalf("ratios %v", r.Components.Ratio)
	}
	for i, w := range want {
		if math.Abs(r.Components.Ratio[i]-w) > 1e-6 {
			t.Errorf("ratio %d: %v, scikit-learn %v", i, r.Components.Ratio[i], w)
		}
	}
	ari := func(model string) float64 {
		out, _, _ := run(t, "train", "--data", "circles", "--model", model, "--param", "k=2", "--json")
		var r struct {
			Metrics map[string]float64 `json:"metrics"`
		}
		json.Unmarshal([]byte(out), &r)
		return r.Metrics["ari"]
	}
	if sp, km := ari("spectral"), ari("kmeans"); sp < 0.9 || km > 0.5 {
		t.Errorf("circles: spectral ARI %v, k-means %v", sp, km)
	}
}
