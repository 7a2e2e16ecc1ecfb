package svm

import (
	"math"
	"slices"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/kernel"
)

// engine.Persistent for the SMO models: the support vectors (in the units
// the model received them), their coefficients, the biases, the kernel
// with gamma resolved, and Platt's sigmoids.
var (
	_ engine.Persistent = (*SVC)(nil)
	_ engine.Persistent = (*SVR)(nil)
)

// smoKernelState is a Kernel with its parameters resolved.
type smoKernelState struct {
	Kind   string  `json:"kind"`
	Degree int     `json:"degree"`
	Gamma  float64 `json:"gamma"`
	Coef0  float64 `json:"coef0"`
}

// smoSVState is a kernel machine's support vectors.
type smoSVState struct {
	Features []string       `json:"features,omitempty"`
	Width    int            `json:"width"` // features each vector has
	Kernel   smoKernelState `json:"kernel"`
	Rows     []int          `json:"sv_rows"`
	X        [][]float64    `json:"sv"`
	Iters    int            `json:"iterations"`
	Warnings []string       `json:"warnings,omitempty"`
}

type svcPairState struct {
	Pos     int       `json:"pos"`
	Neg     int       `json:"neg"`
	SV      []int     `json:"sv,omitempty"`
	Coef    []float64 `json:"coef,omitempty"`
	AtBound []bool    `json:"at_bound,omitempty"`
	Rho     float64   `json:"rho"`
	W       []float64 `json:"w,omitempty"`
	ProbA   float64   `json:"prob_a"`
	ProbB   float64   `json:"prob_b"`
}

type svcState struct {
	smoSVState
	Classes int            `json:"classes"`
	Names   []string       `json:"class_names,omitempty"`
	Present []int          `json:"present"`
	SVClass []int          `json:"sv_class"`
	Pairs   []svcPairState `json:"pairs"`
}

type svrState struct {
	smoSVState
	Coef    []float64 `json:"coef"`
	AtBound []bool    `json:"at_bound"`
	Rho     float64   `json:"rho"`
}

func newSMOSVState(features []string, k Kernel, sv *smoRows, rows []int, iters int, warnings []string) smoSVState {
	s := smoSVState{Features: features, Width: sv.d, Kernel: smoKernelState(k), Rows: rows, X: make([][]float64, len(rows)),
		Iters: iters, Warnings: warnings}
	for i := range rows {
		s.X[i] = append([]float64(nil), sv.row(i)...)
	}
	return s
}

// check validates the vectors against the model's kernel parameter.
func (s *smoSVState) check(c *engine.StateCheck, kind string) {
	k := s.Kernel
	c.That(k.Kind == kind, "kernel is %q, but the model's kernel is %q", k.Kind, kind)
	c.That(k.Degree >= 1 && k.Degree <= 10, "kernel degree is %d; want 1 to 10", k.Degree)
	c.That(k.Gamma > 0 && !math.IsInf(k.Gamma, 0), "kernel gamma is %v; want a number above 0", k.Gamma)
	c.Finite("kernel coef0", k.Coef0)
	c.That(s.Width >= 1, "width is %d; want at least 1", s.Width)
	c.That(s.Features == nil || len(s.Features) == s.Width, "features has %d names for width %d", len(s.Features), s.Width)
	c.Len("sv", len(s.X), len(s.Rows))
	for i, x := range s.X {
		if !c.Len("a support vector", len(x), s.Width) || !c.Finite("sv", x...) {
			return
		}
		c.That(s.Rows[i] >= 0, "sv_rows holds %d; want row numbers from 0", s.Rows[i])
	}
	c.That(s.Iters >= 0, "iterations is %d", s.Iters)
}

func (s *smoSVState) rows() *smoRows {
	r := &smoRows{x: make([]float64, 0, len(s.X)*s.Width), d: s.Width, sq: make([]float64, len(s.X)), k: Kernel(s.Kernel)}
	for i, x := range s.X {
		r.x = append(r.x, x...)
		r.sq[i] = kernel.Dot(x, x)
	}
	return r
}

// MarshalState implements engine.Persistent.
func (m *SVC) MarshalState() ([]byte, error) {
	return engine.MarshalFitted(svcName, m.Fitted, func() any {
		f := m.fit
		s := svcState{smoSVState: newSMOSVState(f.features, f.kernel, f.sv, f.svRow, f.iters, m.warnings),
			Classes: f.classes, Names: f.names, Present: f.present, SVClass: f.svClass}
		for _, p := range f.pairs {
			s.Pairs = append(s.Pairs, svcPairState(p))
		}
		return s
	})
}

// UnmarshalState implements engine.Persistent.
func (m *SVC) UnmarshalState(data []byte) error {
	var s svcState
	if err := engine.DecodeState(svcName, data, &s); err != nil {
		return err
	}
	c := engine.NewStateCheck(svcName)
	s.check(c, m.values.String("kernel"))
	c.That(s.Classes >= 2, "classes is %d; want at least 2", s.Classes)
	c.That(len(s.Present) >= 2 && slices.IsSorted(s.Present) && s.Present[0] >= 0 && s.Present[len(s.Present)-1] < s.Classes &&
		len(slices.Compact(slices.Clone(s.Present))) == len(s.Present), "present is %v; want two or more increasing classes below %d", s.Present, s.Classes)
	// Every class has its name: a count of classes that no list backs would
	// size each prediction's tally (1e9 classes: minutes per row).
	c.That(len(s.Names) == s.Classes, "class_names has %d names for %d classes", len(s.Names), s.Classes)
	c.Len("sv_class", len(s.SVClass), len(s.Rows))
	for _, k := range s.SVClass {
		c.That(slices.Contains(s.Present, k), "sv_class holds %d, not a class present", k)
	}
	k := len(s.Present)
	c.Len("pairs", len(s.Pairs), k*(k-1)/2)
	for _, p := range s.Pairs {
		s.checkPair(c, p)
	}
	if err := c.Err(); err != nil {
		return err
	}
	fit := &svcFit{features: s.Features, classes: s.Classes, names: s.Names, present: s.Present, kernel: Kernel(s.Kernel), sv: s.rows(),
		svRow: s.Rows, svClass: s.SVClass, iters: s.Iters}
	for _, p := range s.Pairs {
		fit.pairs = append(fit.pairs, svcPair(p))
	}
	m.fit, m.warnings, m.Fitted = fit, s.Warnings, true
	return nil
}

// checkPair validates one pair's decision function.
func (s *svcState) checkPair(c *engine.StateCheck, p svcPairState) {
	c.That(p.Pos < p.Neg && slices.Contains(s.Present, p.Pos) && slices.Contains(s.Present, p.Neg),
		"a pair of classes %d and %d; want two present classes, the lower first", p.Pos, p.Neg)
	c.Len("a pair's coef", len(p.Coef), len(p.SV))
	c.Len("a pair's at_bound", len(p.AtBound), len(p.SV))
	for _, sv := range p.SV {
		if c.That(sv >= 0 && sv < len(s.Rows), "a pair names support vector %d of %d", sv, len(s.Rows)) {
			c.That(s.SVClass[sv] == p.Pos || s.SVClass[sv] == p.Neg, "a pair of classes %d and %d names a vector of class %d", p.Pos, p.Neg, s.SVClass[sv])
		}
	}
	c.Finite("coef", p.Coef...)
	c.Finite("rho", p.Rho)
	c.That(p.W == nil || len(p.W) == s.Width, "a pair's w has %d values for width %d", len(p.W), s.Width)
	c.Finite("w", p.W...)
	c.Finite("prob_a", p.ProbA, p.ProbB)
}

// MarshalState implements engine.Persistent.
func (m *SVR) MarshalState() ([]byte, error) {
	return engine.MarshalFitted(svrName, m.Fitted, func() any {
		f := m.fit
		return svrState{smoSVState: newSMOSVState(f.features, f.kernel, f.sv, f.svRow, f.iters, m.warnings),
			Coef: f.coef, AtBound: f.atBound, Rho: f.rho}
	})
}

// UnmarshalState implements engine.Persistent.
func (m *SVR) UnmarshalState(data []byte) error {
	var s svrState
	if err := engine.DecodeState(svrName, data, &s); err != nil {
		return err
	}
	c := engine.NewStateCheck(svrName)
	s.check(c, m.values.String("kernel"))
	c.Len("coef", len(s.Coef), len(s.Rows))
	c.Len("at_bound", len(s.AtBound), len(s.Rows))
	c.Finite("coef", s.Coef...)
	c.Finite("rho", s.Rho)
	if err := c.Err(); err != nil {
		return err
	}
	m.fit = &svrFit{features: s.Features, kernel: Kernel(s.Kernel), sv: s.rows(), svRow: s.Rows, coef: s.Coef,
		atBound: s.AtBound, rho: s.Rho, iters: s.Iters}
	m.warnings, m.Fitted = s.Warnings, true
	return nil
}
