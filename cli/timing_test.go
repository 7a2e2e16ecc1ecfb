package cli

import (
	"encoding/json"
	"regexp"
	"testing"
)

// The time a report gives is the time the person waited, split into
// fitting, scoring the held-out rows and the rest, never the fit alone:
// a forest's live curve once cost 50 times its fit while the report said
// only "fit time".
func TestReportsWholeTime(t *testing.T) {
	out, _, code := run(t, "train", "--data", "iris", "--model", "forest", "--param", "trees=30")
	if code != 0 {
		t.Fatal(out)
	}
	if !regexp.MustCompile(`(?m)^time [0-9.]+ [µm]?s: fitting [0-9.]+ [µm]?s · scoring [0-9.]+ [µm]?s · other [0-9.]+ [µm]?s$`).MatchString(out) {
		t.Errorf("no whole time line in:\n%s", out)
	}
	out, _, code = run(t, "train", "--data", "iris", "--model", "forest", "--param", "trees=30", "--json")
	if code != 0 {
		t.Fatal(out)
	}
	var res struct {
		Fit   *float64 `json:"fit_seconds"`
		Score *float64 `json:"score_seconds"`
		Wall  *float64 `json:"seconds"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if res.Fit == nil || res.Score == nil || res.Wall == nil || !(*res.Score > 0) || *res.Wall < *res.Fit+*res.Score {
		t.Errorf("fit_seconds %v, score_seconds %v, seconds %v", res.Fit, res.Score, res.Wall)
	}
}

// A fit the memory cannot hold is refused before it starts: exit 2 and one
// line with the estimate, the reason and what to do, naming the model and
// the data once.
func TestTrainRefusesWhatMemoryCannotHold(t *testing.T) {
	t.Setenv("TEALAB_MEMORY", "100MB")
	_, stderr, code := run(t, "train", "--data", "moons:n=5000", "--model", "hclust")
	want := "tealab: hclust on moons: a 5000 x 5000 matrix of pairwise distances needs 200 MB, more than the 100 MB $TEALAB_MEMORY allows (sample the rows, or use linkage=divisive or k-means)\n"
	if code != 2 || stderr != want {
		t.Errorf("exit %d, stderr %q\nwant 2, %q", code, stderr, want)
	}
	if _, _, code := run(t, "train", "--data", "moons:n=5000", "--model", "hclust", "--param", "linkage=divisive"); code != 0 {
		t.Errorf("divisive linkage, which keeps no distances: exit %d", code)
	}
}
