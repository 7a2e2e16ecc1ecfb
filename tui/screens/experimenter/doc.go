// Package experimenter is the lab's Experimenter screen: several models on
// the same folds of repeated k-fold CV (engine/experiment), their scores
// with the corrected t-test against a baseline, exported as Markdown and CSV.
package experimenter
