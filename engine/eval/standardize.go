package eval

import (
	"fmt"
	"strings"
)

// The choices of Options.Standardize as the CLI and the lab name them.
const (
	StandardizeAuto = "auto" // as the model expects (engine.Spec.Standardize)
	StandardizeYes  = "yes"
	StandardizeNo   = "no"
)

// ParseStandardize reads auto, yes or no (true/false, on/off too) into
// Options.Standardize: nil for auto.
func ParseStandardize(s string) (*bool, error) {
	on, off := true, false
	switch strings.ToLower(strings.TrimSpace(s)) {
	case StandardizeAuto, "":
		return nil, nil
	case StandardizeYes, "true", "on", ScaleStandardize:
		return &on, nil
	case StandardizeNo, "false", "off", ScaleNone:
		return &off, nil
	}
	return nil, fmt.Errorf("%q is not one of %s, %s, %s", s, StandardizeAuto, StandardizeYes, StandardizeNo)
}

// StandardizeName names Options.Standardize: auto, yes or no.
func StandardizeName(b *bool) string {
	switch {
	case b == nil:
		return StandardizeAuto
	case *b:
		return StandardizeYes
	}
	return StandardizeNo
}
