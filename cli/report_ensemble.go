package cli

import (
	"fmt"
	"io"

	"github.com/tealab/tealab/engine/ensemble"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/runs"
	"github.com/tealab/tealab/numfmt"
)

// The section of an ensemble: its members, each with its own error.

func init() {
	addSection(section{name: "members", order: ensemble.CapMembers.Order, write: writeMembers, needs: hasLearned(ensemble.CapMembers.Name)})
}

func writeMembers(out io.Writer, r *runs.Record) {
	m, ok := eval.LearnedAs[*ensemble.Members](r.Result, ensemble.CapMembers.Name)
	if !ok || m == nil {
		return
	}
	how := m.Method
	if m.Final != "" {
		how += " into " + m.Final
	}
	fmt.Fprintf(out, "\nmembers (%s, model fitted on %s):\n", how, r.Result.FittedOn)
	width := len("member")
	for _, x := range m.Members {
		width = max(width, len(x.Name))
	}
	extra := "weight"
	if m.Final != "" {
		extra = "feeds"
	}
	fmt.Fprintf(out, "  %-*s  %-13s  %s\n", width, "member", extra, m.Error)
	for _, x := range m.Members {
		e := x.Feeds
		if m.Final == "" {
			e = numfmt.Sig(x.Weight, 4)
		}
		fmt.Fprintf(out, "  %-*s  %-13s  %s\n", width, x.Name, e, numfmt.Fixed(x.Error, 4))
	}
}
