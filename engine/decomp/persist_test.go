package decomp

import (
	"testing"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine/persisttest"
)

// PCA (centred, scaled, k by variance), truncated SVD and random
// projection (k given, or the Johnson–Lindenstrauss k with its warning):
// saved, loaded, and projecting rows as the fitted model did; and edits of
// their states that loading must refuse.
func TestPersist(t *testing.T) {
	iris := persisttest.Builtin(t, "iris", datasets.Reduction)
	wine := persisttest.Builtin(t, "wine", datasets.Reduction)
	digits := persisttest.Builtin(t, "digits", datasets.Reduction)
	set, drop, shorten, lengthen := persisttest.Set, persisttest.Drop, persisttest.Shorten, persisttest.Lengthen
	pca := []persisttest.Mutation{shorten("mean"), shorten("scale"), shorten("components.0"), lengthen("components.0"),
		shorten("variance"), shorten("ratio"), set("ratio.0", 1.5), set("scale.0", 0.0), set("reconstruction_error", -1.0),
		drop("components"), shorten("features"), set("components", []any{})}
	projection := []persisttest.Mutation{shorten("projection.1"), set("projection", []any{}), set("distortion", -0.5),
		set("projection.0.0", "1"), drop("distortion")}
	persisttest.Check(t, []persisttest.Case{
		{Name: "pca", Train: iris, X: iris.X, Edits: append(pca, set("scale.0", 2.0))},
		{Name: "pca", Settings: map[string]string{"scale": "true", "variance": "0.9"}, Train: wine, X: wine.X, Edits: pca},
		{Name: "pca", Settings: map[string]string{"k": "3"}, Train: wine, X: wine.X, Edits: append(pca, shorten("components"))},
		{Name: "svd", Settings: map[string]string{"k": "5"}, Train: digits, X: digits.X,
			Edits: append(pca, set("mean.3", 1.0), shorten("components"))},
		{Name: "randproj", Settings: map[string]string{"k": "10"}, Train: digits, X: digits.X,
			Edits: append(projection, shorten("projection"))},
		{Name: "randproj", Train: wine, X: wine.X, Edits: append(projection, lengthen("projection"))},
	})
}
