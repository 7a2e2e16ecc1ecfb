package boosting

import (
	"math"
	"slices"

	"github.com/tealab/tealab/engine"
)

// state is a fitted GBDT as a model file keeps it: the bins (numeric
// features' cuts, nominal features' level bins), the base scores and the
// trees node by node.
type state struct {
	Loss      string      `json:"loss"`
	Classes   int         `json:"classes"`
	Base      []float64   `json:"base"`
	Features  []string    `json:"features,omitempty"`
	Bins      []int       `json:"bins"` // each feature's bins, the missing bin included
	Nominal   []bool      `json:"nominal"`
	Cuts      [][]float64 `json:"cuts"`       // numeric features; [] for nominal ones
	LevelBins [][]int     `json:"level_bins"` // nominal features: each level's bin; [] for numeric ones
	Levels    [][]string  `json:"levels"`     // nominal features' level names
	Trees     []treeState `json:"trees"`
}

type treeState struct {
	Feature     []int     `json:"feature"` // -1 at a leaf
	Bin         []int     `json:"bin"`     // numeric splits: the last bin that goes left
	Cats        [][]int   `json:"cats"`    // nominal splits: the bins that go left
	Left        []int     `json:"left"`
	Right       []int     `json:"right"`
	DefaultLeft []bool    `json:"default_left"`
	Missing     []bool    `json:"missing"`
	Value       []float64 `json:"value"`
	Gain        []float64 `json:"gain"`
	Cover       []float64 `json:"cover"`
	Count       []int     `json:"count"`
}

// MarshalState implements engine.Persistent.
func (m *GBDT) MarshalState() ([]byte, error) {
	return engine.MarshalFitted("gbdt", m.Fitted && m.m != nil, func() any { return m.m.state() })
}

func (f *fitted) state() state {
	b := f.bins
	s := state{Loss: f.loss, Classes: f.k, Base: f.base, Features: f.features, Bins: b.nbins, Nominal: b.nominal}
	for j := range f.p {
		s.Cuts = append(s.Cuts, append([]float64{}, b.cuts[j]...))
		lb := []int{}
		for _, x := range b.levelBin[j] {
			lb = append(lb, int(x))
		}
		s.LevelBins = append(s.LevelBins, lb)
		s.Levels = append(s.Levels, append([]string{}, b.levels[j]...))
	}
	for _, t := range f.trees {
		ts := treeState{DefaultLeft: t.defLeft, Missing: t.missing, Value: t.value, Gain: t.gain, Cover: t.cover}
		for k := range t.nodes() {
			ts.Feature = append(ts.Feature, int(t.feature[k]))
			ts.Bin = append(ts.Bin, int(t.bin[k]))
			ts.Left = append(ts.Left, int(t.left[k]))
			ts.Right = append(ts.Right, int(t.right[k]))
			ts.Count = append(ts.Count, int(t.count[k]))
			cats := []int{}
			if c := t.cats[k]; c >= 0 {
				for b := range 256 {
					if t.catsets[c][b>>6]&(1<<(b&63)) != 0 {
						cats = append(cats, b)
					}
				}
			}
			ts.Cats = append(ts.Cats, cats)
		}
		s.Trees = append(s.Trees, ts)
	}
	return s
}

// UnmarshalState implements engine.Persistent.
func (m *GBDT) UnmarshalState(data []byte) error {
	m.m, m.Fitted = nil, false
	var s state
	if err := engine.DecodeState("gbdt", data, &s); err != nil {
		return err
	}
	c := engine.NewStateCheck("gbdt")
	f := &fitted{loss: s.Loss, k: s.Classes, K: 1, features: s.Features}
	switch s.Loss {
	case lossLogistic:
		c.That(s.Classes == 2, "loss %s with %d classes; want 2", s.Loss, s.Classes)
	case lossSoftmax:
		c.That(s.Classes > 2 && s.Classes <= 1<<16, "loss %s with %d classes; want 3 or more", s.Loss, s.Classes)
		f.K = s.Classes
	case LossSquared, LossAbsolute, LossHuber:
		c.That(s.Classes == 0, "regression loss %s with %d classes", s.Loss, s.Classes)
		c.That(s.Loss == m.Loss, "loss %s, but the model's parameters say %s", s.Loss, m.Loss)
	default:
		c.Failf("loss %q is not one of %s, %s, %s, %s, %s", s.Loss, lossLogistic, lossSoftmax, LossSquared, LossAbsolute, LossHuber)
	}
	c.Vector("base", s.Base, f.K)
	f.base = s.Base
	p := len(s.Bins)
	f.p = p
	c.That(p > 0, "bins has no features")
	c.Names("features", s.Features, p)
	c.Len("nominal", len(s.Nominal), p)
	c.Len("cuts", len(s.Cuts), p)
	c.Len("level_bins", len(s.LevelBins), p)
	c.Len("levels", len(s.Levels), p)
	if !c.OK() {
		return c.Err()
	}
	b := &binner{nominal: s.Nominal, cuts: make([][]float64, p), levelBin: make([][]uint8, p), levels: make([][]string, p),
		nbins: s.Bins, otherBin: make([]int, p)}
	for j := range p {
		nb := s.Bins[j]
		if !c.That(nb >= 2 && nb <= 256, "feature %d has %d bins; want 2 to 256", j+1, nb) {
			break
		}
		if s.Nominal[j] {
			c.Len("the level names of a nominal feature", len(s.Levels[j]), len(s.LevelBins[j]))
			c.Len("the cuts of a nominal feature", len(s.Cuts[j]), 0)
			lb := make([]uint8, len(s.LevelBins[j]))
			for k, x := range s.LevelBins[j] {
				c.That(x >= 1 && x < nb, "feature %d: level %d's bin is %d; want 1 to %d", j+1, k+1, x, nb-1)
				lb[k] = uint8(x)
			}
			b.levelBin[j], b.levels[j], b.otherBin[j] = lb, s.Levels[j], nb-1
			continue
		}
		cuts := s.Cuts[j]
		c.Len("the cuts of a numeric feature", len(cuts), nb-2)
		c.Finite("cuts", cuts...)
		c.That(slices.IsSorted(cuts) && !hasDup(cuts), "feature %d: the cuts do not increase", j+1)
		c.That(len(s.LevelBins[j]) == 0 && len(s.Levels[j]) == 0, "feature %d is numeric but has levels", j+1)
		b.cuts[j] = cuts
	}
	if !c.OK() {
		return c.Err()
	}
	f.bins = b
	c.That(len(s.Trees) > 0 && len(s.Trees)%f.K == 0, "%d trees; want a positive multiple of %d", len(s.Trees), f.K)
	for i, ts := range s.Trees {
		if !c.OK() {
			break
		}
		f.trees = append(f.trees, loadTree(c, i+1, ts, b))
	}
	if !c.OK() {
		return c.Err()
	}
	m.m, m.Fitted = f, true
	return nil
}

func hasDup(v []float64) bool {
	for i := 1; i < len(v); i++ {
		if v[i] == v[i-1] {
			return true
		}
	}
	return false
}

// loadTree checks tree number i of a state and builds it.
func loadTree(c *engine.StateCheck, i int, ts treeState, b *binner) *tree {
	N := len(ts.Feature)
	if !c.That(N > 0, "tree %d has no nodes", i) {
		return nil
	}
	for _, l := range []struct {
		name string
		n    int
	}{{"bin", len(ts.Bin)}, {"cats", len(ts.Cats)}, {"left", len(ts.Left)}, {"right", len(ts.Right)},
		{"default_left", len(ts.DefaultLeft)}, {"missing", len(ts.Missing)}, {"value", len(ts.Value)},
		{"gain", len(ts.Gain)}, {"cover", len(ts.Cover)}, {"count", len(ts.Count)}} {
		c.That(l.n == N, "tree %d: %s has %d entries; want %d, one a node", i, l.name, l.n, N)
	}
	c.Finite("value", ts.Value...)
	c.Finite("gain", ts.Gain...)
	c.Finite("cover", ts.Cover...)
	if !c.OK() {
		return nil
	}
	t := &tree{}
	p := len(b.nbins)
	for k := range N {
		t.addNode(ts.Value[k], ts.Cover[k], ts.Count[k])
		t.gain[k], t.defLeft[k], t.missing[k] = ts.Gain[k], ts.DefaultLeft[k], ts.Missing[k]
		c.That(ts.Count[k] >= 0 && ts.Count[k] <= math.MaxInt32, "tree %d, node %d: count %d", i, k+1, ts.Count[k])
		j := ts.Feature[k]
		if j < 0 {
			c.That(j == -1 && ts.Left[k] == -1 && ts.Right[k] == -1 && ts.Bin[k] == 0 && len(ts.Cats[k]) == 0,
				"tree %d, node %d: a leaf (feature -1) with children or a split", i, k+1)
			continue
		}
		if !c.That(j < p, "tree %d, node %d: feature %d; want below %d", i, k+1, j, p) ||
			!c.That(ts.Left[k] > k && ts.Left[k] < N && ts.Right[k] > k && ts.Right[k] < N && ts.Left[k] != ts.Right[k],
				"tree %d, node %d: children %d and %d; want two distinct nodes after it", i, k+1, ts.Left[k], ts.Right[k]) {
			return nil
		}
		t.feature[k], t.left[k], t.right[k] = int32(j), int32(ts.Left[k]), int32(ts.Right[k])
		nb := b.nbins[j]
		if b.nominal[j] {
			c.That(ts.Bin[k] == 0 && len(ts.Cats[k]) > 0, "tree %d, node %d: a nominal split needs its bins and no bin", i, k+1)
			var set [4]uint64
			for _, x := range ts.Cats[k] {
				if !c.That(x >= 1 && x < nb, "tree %d, node %d: bin %d; want 1 to %d", i, k+1, x, nb-1) {
					return nil
				}
				set[x>>6] |= 1 << (x & 63)
			}
			t.cats[k] = int32(len(t.catsets))
			t.catsets = append(t.catsets, set)
			continue
		}
		if !c.That(len(ts.Cats[k]) == 0 && ts.Bin[k] >= 1 && ts.Bin[k] <= nb-2,
			"tree %d, node %d: bin %d of a numeric split; want 1 to %d", i, k+1, ts.Bin[k], nb-2) {
			return nil
		}
		t.bin[k] = uint8(ts.Bin[k])
		t.thresh[k] = b.cuts[j][ts.Bin[k]-1]
	}
	return t
}
