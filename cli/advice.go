package cli

import (
	"fmt"
	"strings"

	"github.com/tealab/tealab/advice"
	"github.com/tealab/tealab/engine/eval"
)

// remedyText says a remedy the engine advises as the flags that apply it.
func remedyText(r advice.Remedy) string {
	switch r.Kind {
	case advice.HoldOutLess:
		return "hold out less (--split)"
	case advice.HoldOutMore:
		return "hold out more (--split)"
	case advice.CrossValidate:
		if r.K > 0 {
			return fmt.Sprintf("use --cv %d", r.K)
		}
		return "use --cv"
	case advice.LeaveOneOut:
		return "use --loo"
	case advice.Drop:
		if len(r.Columns) == 0 {
			return "drop columns (--drop)"
		}
		return "drop " + r.Them() + " with --drop " + strings.Join(r.Columns, ",")
	case advice.Reduce:
		return "reduce them first (--reduce K)"
	case advice.Model:
		if r.Model != "" {
			return "use --model " + r.Model
		}
	}
	return r.String()
}

// sayWarnings writes res's warnings with their remedies as flags, so that
// the report, --json and --save all read as the command line speaks.
func sayWarnings(res *eval.Result) {
	if res == nil {
		return
	}
	for i, w := range res.Warnings {
		res.Warnings[i] = advice.Warning{Text: w.In(remedyText)}
	}
}
