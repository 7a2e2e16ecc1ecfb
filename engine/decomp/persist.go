package decomp

import "github.com/tealab/tealab/engine"

// Every model of the package can be saved.
var (
	_ engine.Persistent = (*PCA)(nil)
	_ engine.Persistent = (*RandomProjection)(nil)
)

// pcaState is what a PCA (or truncated SVD) fit keeps: how rows are centred
// and scaled, the directions kept and the variance along each, and its
// reconstruction error. The components' names follow from the model.
type pcaState struct {
	Features   []string    `json:"features,omitempty"`
	Mean       []float64   `json:"mean"`  // zeros for a truncated SVD
	Scale      []float64   `json:"scale"` // ones unless the model scales
	Components [][]float64 `json:"components"`
	Variance   []float64   `json:"variance"`
	Ratio      []float64   `json:"ratio"`
	Recon      float64     `json:"reconstruction_error"`
}

func (m *PCA) name() string {
	if m.Uncentred {
		return "svd"
	}
	return "pca"
}

// MarshalState implements engine.Persistent.
func (m *PCA) MarshalState() ([]byte, error) {
	if !m.Fitted {
		return nil, engine.ErrNotFitted
	}
	return engine.EncodeState(m.name(), pcaState{Features: m.comps.Features, Mean: m.mean, Scale: m.scale,
		Components: engine.StateRows(m.comps.Vectors), Variance: m.comps.Variance, Ratio: m.comps.Ratio, Recon: m.recon})
}

// UnmarshalState implements engine.Persistent.
func (m *PCA) UnmarshalState(data []byte) error {
	var s pcaState
	if err := engine.DecodeState(m.name(), data, &s); err != nil {
		return err
	}
	c := engine.NewStateCheck(m.name())
	d, k := len(s.Mean), len(s.Components)
	c.Vector("mean", s.Mean, d)
	c.Vector("scale", s.Scale, d)
	vectors := c.Matrix("components", s.Components, k, d)
	if m.K > 0 {
		c.That(k == m.K, "components has %d rows, but the model's k is %d", k, m.K)
	}
	c.Names("features", s.Features, d)
	c.Vector("variance", s.Variance, k)
	c.Vector("ratio", s.Ratio, k)
	c.Finite("reconstruction_error", s.Recon)
	c.That(s.Recon >= 0, "reconstruction_error is %v; want an error >= 0", s.Recon)
	for j := 0; j < d && c.OK(); j++ {
		c.That(!m.Uncentred || s.Mean[j] == 0, "mean entry %d is %v, but a truncated SVD does not centre", j+1, s.Mean[j])
		c.That(s.Scale[j] > 0 && (m.Scale || s.Scale[j] == 1), "scale entry %d is %v; want %s", j+1, s.Scale[j], m.wantScale())
	}
	for i := 0; i < k && c.OK(); i++ {
		c.That(s.Ratio[i] >= 0 && s.Ratio[i] <= 1, "ratio entry %d is %v; want a share from 0 to 1", i+1, s.Ratio[i])
	}
	if err := c.Err(); err != nil {
		return err
	}
	comps := &engine.Components{Features: s.Features, Vectors: vectors, Variance: s.Variance, Ratio: s.Ratio}
	for i := range k {
		comps.Names = append(comps.Names, m.componentName(i))
	}
	m.mean, m.scale, m.comps, m.recon, m.Fitted = s.Mean, s.Scale, comps, s.Recon, true
	return nil
}

func (m *PCA) wantScale() string {
	if m.Scale {
		return "a standard deviation > 0"
	}
	return "1, since the model does not scale"
}

// projectionState is a random projection's state: its k × d matrix, the
// worst distortion it measured and its warnings.
type projectionState struct {
	Projection [][]float64 `json:"projection"`
	Distortion float64     `json:"distortion"`
	Warnings   []string    `json:"warnings,omitempty"`
}

// MarshalState implements engine.Persistent.
func (m *RandomProjection) MarshalState() ([]byte, error) {
	if !m.Fitted {
		return nil, engine.ErrNotFitted
	}
	return engine.EncodeState("randproj", projectionState{engine.StateRows(m.P), m.worst, m.warnings})
}

// UnmarshalState implements engine.Persistent.
func (m *RandomProjection) UnmarshalState(data []byte) error {
	var s projectionState
	if err := engine.DecodeState("randproj", data, &s); err != nil {
		return err
	}
	c := engine.NewStateCheck("randproj")
	k, d := len(s.Projection), 0
	if k > 0 {
		d = len(s.Projection[0])
	}
	P := c.Matrix("projection", s.Projection, k, d)
	c.That(k <= d, "projection has %d rows for %d features; want at most one direction per feature", k, d)
	if m.K > 0 {
		c.That(k == m.K, "projection has %d rows, but the model's k is %d", k, m.K)
	} else if want := JLDimensions(m.Eps, m.Delta); want < d {
		c.That(k == want, "projection has %d rows, but eps and delta ask for %d", k, want)
	} else {
		c.That(k == halfOf(d), "projection has %d rows; eps and delta ask for %d, not fewer than the %d features, so want half of them, %d", k, want, d, halfOf(d))
	}
	c.Finite("distortion", s.Distortion)
	c.That(s.Distortion >= 0, "distortion is %v; want a distortion >= 0", s.Distortion)
	if err := c.Err(); err != nil {
		return err
	}
	m.P, m.worst, m.warnings, m.Fitted = P, s.Distortion, s.Warnings, true
	return nil
}
