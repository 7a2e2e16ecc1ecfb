package rank

import (
	"context"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine/eval"
)

// The filters (every method but permutation) are the rankings a filter
// selection inside eval's training parts can name (eval.RegisterRanker):
// eval sits below this package and cannot call it.
func init() {
	for _, m := range methods {
		if m.Model {
			continue
		}
		name := m.Name
		eval.RegisterRanker(eval.Ranker{Name: name, Tasks: m.Tasks,
			Rank: func(ctx context.Context, d *datasets.Dataset, seed uint64) ([]int, error) {
				rs, err := Rank(ctx, d, []string{name}, Options{Eval: eval.Options{Seed: seed}})
				if err != nil {
					return nil, err
				}
				return rs[0].Order(), nil
			}})
	}
}
