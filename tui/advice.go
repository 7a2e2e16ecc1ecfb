package tui

import (
	"fmt"
	"strings"

	"github.com/tealab/tealab/advice"
)

// remedyText says a remedy the engine advises as the lab's screens and keys
// apply it.
func remedyText(r advice.Remedy) string {
	params, data, model := screenNames[screenParams], screenNames[screenData], screenNames[screenModel]
	switch r.Kind {
	case advice.HoldOutLess:
		return "hold out less: lower the test fraction on the " + params + " screen"
	case advice.HoldOutMore:
		return "hold out more: raise the test fraction on the " + params + " screen"
	case advice.CrossValidate:
		if r.K > 0 {
			return fmt.Sprintf("choose %s with %d folds on the %s screen", evalCV, r.K, params)
		}
		return "choose " + evalCV + " on the " + params + " screen"
	case advice.LeaveOneOut:
		return "choose " + evalLOO + " on the " + params + " screen"
	case advice.Drop:
		how := fmt.Sprintf("%s tab of the %s screen, %s", strings.ToLower(previewColumns), data, defaultDataKeys().DropCol.Help().Key)
		if len(r.Columns) == 0 {
			return "drop columns (" + how + ")"
		}
		return fmt.Sprintf("drop %s (%s on %s)", r.Them(), how, quoteAll(r.Columns))
	case advice.Reduce:
		return "reduce them first: set reduce first on the " + params + " screen"
	case advice.Model:
		if r.Model != "" {
			return "choose " + r.Model + " on the " + model + " screen"
		}
		return "choose another model on the " + model + " screen"
	}
	return r.String()
}

// quoteAll lists names quoted: "a", "b".
func quoteAll(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}

// errText is an error's message with its remedies in the lab's words.
func errText(err error) string { return advice.Explain(err, remedyText) }
