package engine

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// CheckFinite reports the first NaN or infinite value of X as "row i,
// feature f is NaN (...)" (i 1-based, f the feature's quoted name or its
// number): the check of every model that needs complete numeric rows.
func CheckFinite(X *mat.Dense, features []string) error {
	r, c := X.Dims()
	for i := 0; i < r; i++ {
		for j, v := range X.RawRowView(i)[:c] {
			if math.IsNaN(v) {
				return fmt.Errorf("row %d, feature %s is NaN (missing: impute or drop it first)", i+1, FeatureName(features, j))
			}
			if math.IsInf(v, 0) {
				return fmt.Errorf("row %d, feature %s is %v (infinite: replace it, or mark it missing)", i+1, FeatureName(features, j), v)
			}
		}
	}
	return nil
}

// FeatureName names column j for messages: its quoted name, or its
// number (1-based) when it has none.
func FeatureName(features []string, j int) string {
	if j < len(features) && features[j] != "" {
		return fmt.Sprintf("%q", features[j])
	}
	return fmt.Sprintf("%d", j+1)
}
