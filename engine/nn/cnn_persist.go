package nn

import "github.com/tealab/tealab/engine"

var _ engine.Persistent = (*CNN)(nil)

// cnnState is a fitted CNN: the image's shape, the pixel scaling and the
// weight slab (its layout follows from the shape, the parameters and the
// number of classes).
type cnnState struct {
	Height  int       `json:"height"`
	Width   int       `json:"width"`
	Classes int       `json:"classes"`
	Mean    float64   `json:"mean"`
	Scale   float64   `json:"scale"`
	Weights []float64 `json:"weights"`
}

// MarshalState implements engine.Persistent.
func (m *CNN) MarshalState() ([]byte, error) {
	return engine.MarshalFitted("cnn", m.Fitted, func() any {
		return cnnState{Height: m.net.h, Width: m.net.w, Classes: m.net.classes(), Mean: m.mean, Scale: m.scale, Weights: m.best}
	})
}

// UnmarshalState implements engine.Persistent.
func (m *CNN) UnmarshalState(data []byte) error {
	var s cnnState
	if err := engine.DecodeState("cnn", data, &s); err != nil {
		return err
	}
	c := engine.NewStateCheck("cnn")
	c.Range("height", s.Height, 1, 4096)
	c.Range("width", s.Width, 1, 4096)
	c.Range("classes", s.Classes, 2, 1<<20)
	if m.shapeH > 0 {
		c.That(s.Height == m.shapeH && s.Width == m.shapeW, "the image is %dx%d but the parameter shape says %dx%d", s.Height, s.Width, m.shapeH, m.shapeW)
	}
	c.Finite("mean", s.Mean)
	c.That(s.Scale > 0 && isFinite(s.Scale), "scale is %v; want a positive number", s.Scale)
	if !c.OK() {
		return c.Err()
	}
	// The weights must be as many as the shape implies before the pixel
	// index is made at that shape: a file of a few weights declaring a
	// 4096x4096 image is refused here, not after gigabytes of index.
	net := layoutConvNet(s.Height, s.Width, m.filters, m.kernel, m.pool, m.hidden, s.Classes)
	if !c.Vector("weights", s.Weights, net.size()) ||
		!c.Alloc("the image's pixel index", float64(s.Height)*float64(s.Width)*float64(m.kernel*m.kernel), 8) {
		return c.Err()
	}
	net.src = net.im2colIndex()
	m.net, m.best, m.mean, m.scale = net, s.Weights, s.Mean, s.Scale
	m.Fitted = true
	return nil
}
