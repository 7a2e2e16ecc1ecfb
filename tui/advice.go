package tui

import (
	"fmt"
	"strings"

	"github.com/tealab/tealab/advice"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/tui/screens/data"
)

// remedyText says a remedy the engine advises as the lab applies it: the
// neutral words, then where on which screen, as the command line gives its
// flags.
func remedyText(r advice.Remedy) string {
	on := func(where string, screen screenID) string {
		return fmt.Sprintf("%s (%s on the %s screen)", r, where, screenNames[screen])
	}
	switch r.Kind {
	case advice.HoldOutLess:
		return on("lower the test fraction", screenParams)
	case advice.HoldOutMore:
		return on("raise the test fraction", screenParams)
	case advice.CrossValidate:
		if r.K > 0 {
			return on(fmt.Sprintf("choose %s with %d folds", eval.SchemeKFold, r.K), screenParams)
		}
		return on("choose "+eval.SchemeKFold, screenParams)
	case advice.LeaveOneOut:
		return on("choose "+eval.SchemeLOO, screenParams)
	case advice.Drop:
		which := "a column"
		if len(r.Columns) > 0 {
			which = quoteAll(r.Columns)
		}
		return on(fmt.Sprintf("select %s in the %s tab and press %s", which, data.PreviewColumns, data.DefaultKeys().DropCol.Help().Key), screenData)
	case advice.Reduce:
		return on("set reduce first", screenParams)
	case advice.Model:
		if r.Model == "" {
			return r.String() + " on the " + screenNames[screenModel] + " screen"
		}
		return on("choose it", screenModel)
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
