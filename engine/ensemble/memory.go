package ensemble

import (
	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

// membersMemory is what fitting the members of a list allocates: every
// member's estimate (their fits are kept side by side) and, with inner
// folds (cv > 0), the largest inner fit with its copy of the training
// part, one at a time. A list that does not resolve needs nothing: the
// fit refuses it before allocating.
func membersMemory(s engine.Shape, text string, cv int) engine.Need {
	task := datasets.Regression
	if s.Classes > 0 {
		task = datasets.Classification
	}
	list, err := forTask(text, defaultMembers(task), task)
	if err != nil {
		return engine.Need{}
	}
	k := max(s.Classes, 1)
	need := engine.Matrices(len(list), s.Rows, k, "members' answers on the training rows")
	var inner engine.Need
	for _, r := range list {
		if r.spec.Memory == nil {
			continue
		}
		need = need.Plus(r.spec.Memory(s, r.values))
		if cv > 0 {
			in := s
			in.Rows = s.Rows - s.Rows/cv
			if n := r.spec.Memory(in, r.values); n.Bytes > inner.Bytes {
				inner = n
			}
		}
	}
	if cv > 0 {
		need = need.Plus(inner).Plus(engine.Matrix(s.Rows-s.Rows/cv, s.Cols, "copy of an inner fold's training rows"))
	}
	return need
}

// stackMemory is the meta-model's rows (the out-of-fold answers, and
// their copy with the features) and its own fit.
func stackMemory(s engine.Shape, v engine.Values) engine.Need {
	task := datasets.Regression
	if s.Classes > 0 {
		task = datasets.Classification
	}
	list, err := forTask(v.String("models"), defaultMembers(task), task)
	if err != nil {
		return engine.Need{}
	}
	width := len(list) * max(s.Classes, 1)
	if v.Bool("passthrough") {
		width += s.Cols
	}
	need := engine.Matrices(2, s.Rows, width, "out-of-fold answers")
	st := &Stacking{Final: v.String("final")}
	if final, err := st.resolveFinal(task); err == nil && final.spec.Memory != nil {
		meta := s
		meta.Cols = width
		need = need.Plus(final.spec.Memory(meta, final.values))
	}
	return need
}
