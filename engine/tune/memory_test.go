package tune_test

import (
	"context"
	"testing"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/tune"
	"github.com/tealab/tealab/internal/fakemodels/fakehog"
)

// A sweep on four workers under a memory limit that holds two points'
// fits runs at most two at once: each point reserves its estimate in the
// search's account, and waits for memory the others hold. Under a limit
// that holds them all, four run at once: the count can see an overlap.
func TestSweepAccountsForThePointsRunningAtOnce(t *testing.T) {
	d := open(t, "iris")
	spec := lookup(t, fakehog.Name)
	axes := []tune.Axis{axis(t, fakehog.Name, "p=1..8")}
	for _, c := range []struct {
		limit string
		most  int
	}{{"100GB", 4}, {"1GB", 2}} {
		t.Setenv(engine.MemoryEnv, c.limit)
		fakehog.Reset()
		res, err := tune.Search(context.Background(), d, spec, nil, axes, tune.Options{Eval: eval.Options{Split: 0.2, Seed: 1}, Jobs: 4}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range res.Points {
			if !p.OK() {
				t.Errorf("point %v: %v", p.Values, p.Err)
			}
		}
		if most := fakehog.Most(); c.most == 4 && most != 4 || most > c.most {
			t.Errorf("under %s, %d fits of 400 MB ran at once; want %d", c.limit, most, c.most)
		}
	}
}

// A nested cross-validation's points share the memory as a search's do:
// under a limit that holds two fits, at most two of its four workers fit
// at once, each beside the copy of its outer training part.
func TestNestedAccountsForThePointsRunningAtOnce(t *testing.T) {
	d := open(t, "iris")
	spec := lookup(t, fakehog.Name)
	t.Setenv(engine.MemoryEnv, "1GB")
	fakehog.Reset()
	res, err := tune.Nested(context.Background(), d, spec, nil, []tune.Axis{axis(t, fakehog.Name, "p=1..4")}, tune.Options{Eval: eval.Options{Split: 0.2, Seed: 1}, Jobs: 4}, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Scored() != 2 {
		t.Errorf("%d outer folds scored of 2", res.Scored())
	}
	if most := fakehog.Most(); most > 2 {
		t.Errorf("under 1GB, %d fits of 400 MB ran at once; want at most 2", most)
	}
}
