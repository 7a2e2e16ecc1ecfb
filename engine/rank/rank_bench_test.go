package rank

import (
	"context"
	"testing"
)

// The filters and ReliefF on breast_cancer (569 rows, 30 features), as
// `tealab rank --data breast_cancer` runs them.
func BenchmarkFilters(b *testing.B) {
	d := builtin(b, "breast_cancer")
	for _, m := range []string{"info_gain", "mutual_info", "relieff"} {
		b.Run(m, func(b *testing.B) {
			for b.Loop() {
				if _, err := Rank(context.Background(), d, []string{m}, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
