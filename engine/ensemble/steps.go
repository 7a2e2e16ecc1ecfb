package ensemble

import "github.com/tealab/tealab/engine"

// Member is a step of an ensemble (engine.Step.Detail): one more member
// fitted, and how well it does alone, which the ensemble's curve can be
// read against.
type Member struct {
	Name  string // as the list writes it, e.g. "knn[k=5]"
	Index int    // 0-based place in the list
	// Error is the member's own error, the share misclassified or the
	// MSE: on the training rows for voting, out of fold (on rows its
	// fit did not see) for stacking.
	Error float64
}

// Figures: member (1-based), member_error.
func (m Member) Figures() []engine.Figure {
	return []engine.Figure{{Name: "member", Value: float64(m.Index + 1)}, {Name: "member_error", Value: m.Error}}
}

// Members is what an ensemble shows of its fit (CapMembers): how it
// combines, and each member.
type Members struct {
	Method  string       `json:"method"`          // "hard voting", "soft voting", "averaging", "stacking"
	Final   string       `json:"final,omitempty"` // stacking's meta-model, as written
	Error   string       `json:"error"`           // what each member's Error measures
	Members []MemberInfo `json:"members"`
}

// MemberInfo is one member of a fitted ensemble.
type MemberInfo struct {
	Name   string  `json:"name"`
	Weight float64 `json:"weight,omitempty"` // voting's weight of the member
	Feeds  string  `json:"feeds,omitempty"`  // stacking: what it gives the meta-model (probabilities, scores, labels, values)
	Error  float64 `json:"error"`
}

// CapMembers offers a fitted ensemble's members.
var CapMembers = engine.DefineCapability("members", "ensemble members", 405, func(m engine.Model) (*Members, bool) {
	switch e := m.(type) {
	case softVoting:
		if e.Fitted {
			return e.info(), true
		}
	case *Voting:
		if e.Fitted {
			return e.info(), true
		}
	case *Stacking:
		if e.Fitted {
			return e.info(), true
		}
	}
	return nil, false
})
