package tui

import "testing"

// The form of a clustering says how it is evaluated, as the engine does,
// and that the cross-validation asked for does not apply (it
// was dropped without a word).
func TestClusteringFormSaysHowItIsScored(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "iris", Model: "kmeans", Eval: cv(10)}, 120, 40)
	mustContain(t, hs.View(), "10-fold CV does not apply to clustering: fitted on all rows, none held out,", "and scored by its silhouette")
	hs = newHarness(t, Options{Data: "moons", Model: "pca"}, 120, 40)
	mustContain(t, hs.View(), "evaluation: fitted on all rows, none held out, and scored by the variance")
}
