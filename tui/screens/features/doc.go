// Package features is the lab's Features screen, opened from the data
// screen: the features ranked by every method that takes the data's
// target (engine/rank), computed in the background, as sorted bars side
// by side or a table of ranks across methods, each method saying how it
// took the numeric features; permutation importance for a model of the
// registry that does the task.
package features
