// Package models registers every model family: importing it (for its side
// effects) fills the engine's registry for the CLI, the TUI and the
// conformance suite. A new family is one more blank import here; the suite in
// conformance_test.go then checks its models without further changes.
package models

import (
	// Families register their models in init.
	_ "github.com/tealab/tealab/engine/boosting"
	_ "github.com/tealab/tealab/engine/cluster"
	_ "github.com/tealab/tealab/engine/decomp"
	_ "github.com/tealab/tealab/engine/ensemble"
	_ "github.com/tealab/tealab/engine/gda"
	_ "github.com/tealab/tealab/engine/linear"
	_ "github.com/tealab/tealab/engine/neighbors"
	_ "github.com/tealab/tealab/engine/nn"
	_ "github.com/tealab/tealab/engine/svm"
	_ "github.com/tealab/tealab/engine/tree"
)
