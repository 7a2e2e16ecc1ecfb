// Package train is the lab's training screen: the run's live views, its
// progress and figures, and the question asked before stopping it.
package train
