package neighbors

import (
	"math"

	"github.com/tealab/tealab/engine"
)

// Every model of the package can be saved.
var (
	_ engine.Persistent = (*KNN)(nil)
)

// knnState is what a k-NN fit keeps: its training rows, in their order,
// with their targets, and the k it settled on. The search structure (a k-d
// tree, or the blocks of the exhaustive search) is built again on loading
// from the rows and the model's settings, as Fit builds it: it is quick to
// build, and a file edited by hand cannot make a tree whose indices point
// anywhere.
type knnState struct {
	Rows    [][]float64 `json:"rows"`
	Targets []float64   `json:"targets"`           // class codes, or values (regression)
	Classes []string    `json:"classes,omitempty"` // none for a regression
	K       int         `json:"k"`                 // the k predictions use
	LOO     []float64   `json:"loo,omitempty"`     // leave-one-out error at each k, when k was chosen by it
}

// MarshalState implements engine.Persistent.
func (m *KNN) MarshalState() ([]byte, error) {
	if !m.Fitted || m.sweep {
		return nil, engine.ErrNotFitted
	}
	rows := make([][]float64, m.n)
	for i := range rows {
		rows[i] = make([]float64, m.p)
		m.row(i, rows[i])
	}
	return engine.EncodeState("knn", knnState{Rows: rows, Targets: m.y, Classes: m.classes, K: m.kUse, LOO: m.loo})
}

// UnmarshalState implements engine.Persistent.
func (m *KNN) UnmarshalState(data []byte) error {
	var s knnState
	if err := engine.DecodeState("knn", data, &s); err != nil {
		return err
	}
	c := engine.NewStateCheck("knn")
	n, p := len(s.Rows), 0
	if n > 0 {
		p = len(s.Rows[0])
	}
	X := c.Matrix("rows", s.Rows, n, p)
	c.Vector("targets", s.Targets, n)
	for i, y := range s.Targets {
		if len(s.Classes) == 0 || !c.OK() {
			break
		}
		c.That(y == math.Trunc(y) && y >= 0 && y < float64(len(s.Classes)),
			"targets entry %d is %v; want a class code 0 to %d", i+1, y, len(s.Classes)-1)
	}
	if m.KMax > 0 {
		c.Len("loo", len(s.LOO), m.KMax)
		c.Range("k_max", m.KMax, 1, n)
		for i, e := range s.LOO {
			if !c.That(e >= 0 && !math.IsInf(e, 0), "loo entry %d is %v; want an error >= 0", i+1, e) {
				break
			}
		}
		if c.OK() {
			c.That(s.K == 1+argmin(s.LOO), "k is %d, but the least leave-one-out error is at k = %d", s.K, 1+argmin(s.LOO))
		}
	} else {
		c.That(s.K == m.K, "k is %d, but the model's k is %d", s.K, m.K)
		c.Len("loo", len(s.LOO), 0)
		c.Range("k", s.K, 1, n)
	}
	if err := c.Err(); err != nil {
		return err
	}
	m.fits++
	m.n, m.p, m.y, m.m = n, p, s.Targets, metricOf(m.Metric, m.P)
	m.k, m.classes = len(s.Classes), s.Classes
	if m.k == 0 {
		m.classes = nil
	}
	m.index(X.RawMatrix().Data)
	m.kUse, m.loo, m.Fitted = s.K, s.LOO, true
	m.sweep, m.cacheX, m.cache = false, nil, nil
	return nil
}
