package tune_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/tune"
)

// BenchmarkSearchJobs times a sweep of a single-threaded model (a tree's
// depth on digits) on one and on two workers.
func BenchmarkSearchJobs(b *testing.B) {
	d := open(b, "digits")
	spec := lookup(b, "tree")
	base, _ := spec.Parse(map[string]string{"prune": "none"})
	axis := axis(b, "tree", "max_depth=1..8")
	for _, jobs := range []int{1, 2} {
		b.Run(fmt.Sprintf("jobs=%d", jobs), func(b *testing.B) {
			for range b.N {
				if _, err := tune.Search(context.Background(), d, spec, base, []tune.Axis{axis}, tune.Options{Eval: eval.Options{Folds: 5, Seed: 1}, Jobs: jobs}, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
