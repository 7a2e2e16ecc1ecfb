package svm

import "github.com/tealab/tealab/engine"

// SupportVectorer is a kernel machine that keeps training rows to predict
// with: its support vectors.
type SupportVectorer interface {
	SupportVectors() *SupportVectors
}

// SupportVectors are the training rows a fitted kernel machine kept, in
// the units of its input (after the run's standardisation, if any), with
// their dual coefficients. For a classifier with k classes trained one
// against one, Coef has k−1 entries per vector, as LIBSVM's sv_coef: its
// coefficient y_i α_i in each of the pairs its class takes part in.
type SupportVectors struct {
	Features []string    `json:"features"`
	Rows     []int       `json:"rows"`            // index of each vector among the training rows
	Class    []string    `json:"class,omitempty"` // class of each vector; empty for regression
	X        [][]float64 `json:"x"`               // the vectors
	Coef     [][]float64 `json:"coef"`            // dual coefficients of each vector
	AtBound  []bool      `json:"at_bound"`        // α = C: on or inside the margin (a margin error)
	Kernel   string      `json:"kernel"`          // the kernel as a formula, for the table's title
}

// CapSupportVectors shows a kernel machine's support vectors.
var CapSupportVectors = engine.DefineCapability("support_vectors", "support vectors",
	func(m engine.Model) (*SupportVectors, bool) {
		s, ok := m.(SupportVectorer)
		if !ok {
			return nil, false
		}
		return s.SupportVectors(), true
	})
