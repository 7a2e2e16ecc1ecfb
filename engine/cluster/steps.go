package cluster

import "github.com/tealab/tealab/engine"

// What the clustering family's fits say of each step besides its loss
// (engine.Step.Detail). The figure names are those run files keep.

// KMeansStep is one Lloyd iteration of one of k-means' runs.
type KMeansStep struct {
	Run          int     // 1-based run (restart) the iteration belongs to
	Moved        int     // rows that changed cluster
	RunObjective float64 // this run's within-cluster sum of squares per row
}

// Figures: run, moved, run_objective.
func (s KMeansStep) Figures() []engine.Figure {
	return []engine.Figure{{Name: "run", Value: float64(s.Run)}, {Name: "moved", Value: float64(s.Moved)}, {Name: "run_objective", Value: s.RunObjective}}
}

// KMedoidsStep is one swap pass of one of k-medoids' runs.
type KMedoidsStep struct {
	Run int // 1-based run (restart)
}

// Figures: run.
func (s KMedoidsStep) Figures() []engine.Figure {
	return []engine.Figure{{Name: "run", Value: float64(s.Run)}}
}

// Merge is one merge of agglomerative clustering.
type Merge struct {
	Size int // rows in the merged cluster
}

// Figures: size.
func (m Merge) Figures() []engine.Figure {
	return []engine.Figure{{Name: "size", Value: float64(m.Size)}}
}

// SpectralGraph is spectral clustering's similarity graph, built.
type SpectralGraph struct {
	Edges float64 // edges of the graph (weights above zero)
}

// Figures: edges.
func (g SpectralGraph) Figures() []engine.Figure {
	return []engine.Figure{{Name: "edges", Value: g.Edges}}
}
