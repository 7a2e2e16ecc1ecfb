package experiment

import (
	"context"
	"testing"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/internal/fakemodels/fakehog"
)

// An experiment on four workers under a memory limit that holds two
// cells' fits runs at most two at once: each cell reserves its estimate
// and waits for what the others hold, rather than each being checked
// against the limit alone. Under a limit that holds them all, four run at
// once: the count can see an overlap.
func TestCellsShareTheMemory(t *testing.T) {
	p := Plan{Datasets: []*datasets.Dataset{open(t, "iris")}, Models: models(t, fakehog.Name, fakehog.Name),
		Folds: 2, Repeats: 4, Seed: 1, Jobs: 4}
	for _, c := range []struct {
		limit string
		most  int
	}{{"100GB", 4}, {"1GB", 2}} {
		t.Setenv(engine.MemoryEnv, c.limit)
		fakehog.Reset()
		o, err := Run(context.Background(), p, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range o.Cells {
			if c.Err != nil {
				t.Errorf("cell %d/%d/%d: %v", c.Dataset, c.Model, c.Repeat, c.Err)
			}
		}
		if most := fakehog.Most(); c.most == 4 && most != 4 || most > c.most {
			t.Errorf("under %s, %d fits of 400 MB ran at once; want %d", c.limit, most, c.most)
		}
	}
}
