package ensemble

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

// An ensemble's state is its members' states, each written and read by
// the member's own model (engine.Persistent), beside what the ensemble
// itself learned of the data. Loading builds each member from the
// ensemble's parameters, as a fit does, and hands it its state: the file
// names no model the parameters do not.

// memberState is one fitted member in a state.
type memberState struct {
	Name  string          `json:"name"`            // as the list writes it: checked against the parameters
	Feeds string          `json:"feeds,omitempty"` // stacking: what it gives the meta-model
	Error float64         `json:"error"`
	State json.RawMessage `json:"state"` // the member's own state
}

type votingState struct {
	Task     string        `json:"task"`
	Classes  int           `json:"classes"`
	Features int           `json:"features"`
	Members  []memberState `json:"members"`
}

type stackingState struct {
	Task     string        `json:"task"`
	Classes  int           `json:"classes"`
	Features int           `json:"features"`
	Members  []memberState `json:"members"`
	Final    memberState   `json:"final"`
}

// saveMember is a fitted member's state; a member that cannot be saved
// makes the ensemble unsavable, and says why.
func saveMember(model string, r resolved, m engine.Model, err float64, f string) (memberState, error) {
	p, ok := m.(engine.Persistent)
	if !ok {
		return memberState{}, fmt.Errorf("%s: %s cannot be saved (%s keeps no saved state)", model, r.label(), r.Name)
	}
	b, e := p.MarshalState()
	if e != nil {
		return memberState{}, fmt.Errorf("%s: %s: %w", model, r.label(), e)
	}
	return memberState{Name: r.Text, Feeds: f, Error: err, State: b}, nil
}

// loadMember builds member r and loads its state.
func loadMember(c *engine.StateCheck, model string, r resolved, s memberState) engine.Model {
	if !c.That(s.Name == r.Text, "%s is %q; the parameters name %q", r.role+" name", s.Name, r.Text) ||
		!c.That(s.Error >= 0 && !math.IsInf(s.Error, 0), "%s error is %v; want a number >= 0", r.label(), s.Error) {
		return nil
	}
	m, err := r.build()
	if err != nil {
		c.Failf("%v", err)
		return nil
	}
	p, ok := m.(engine.Persistent)
	if !ok {
		c.Failf("%s cannot be loaded (%s keeps no saved state)", r.label(), r.Name)
		return nil
	}
	if err := p.UnmarshalState(s.State); err != nil {
		c.Failf("%s: %v", r.label(), err)
		return nil
	}
	return m
}

// loadTask checks the state's task and sizes and resolves the members the
// parameters name for it.
func loadTask(c *engine.StateCheck, task string, classes, features int, models string, count int) (engine.Task, []resolved) {
	var t engine.Task
	switch task {
	case datasets.Classification.String():
		t = datasets.Classification
		c.Range("classes", classes, 2, 1<<20)
	case datasets.Regression.String():
		t = datasets.Regression
		c.Range("classes", classes, 0, 0)
	default:
		c.Failf("task is %q; want classification or regression", task)
	}
	// Loading asks the members about one row of this width (a million
	// features is 8 MB), so the width is bounded before that row is made.
	c.Range("features", features, 1, 1<<20)
	if !c.OK() {
		return t, nil
	}
	list, err := forTask(models, defaultMembers(t), t)
	if err != nil {
		c.Failf("%v", err)
		return t, nil
	}
	c.That(count == len(list), "members has %d entries; the parameters name %d (%s)", count, len(list), joinTexts(list))
	for i := range list {
		list[i].role = "member"
	}
	return t, list
}

// MarshalState implements engine.Persistent.
func (v *Voting) MarshalState() ([]byte, error) {
	if !v.Fitted {
		return nil, engine.ErrNotFitted
	}
	s := votingState{Task: v.task.String(), Classes: v.k, Features: v.p}
	for i, m := range v.models {
		ms, err := saveMember("voting", v.list[i], m, v.errs[i], "")
		if err != nil {
			return nil, err
		}
		s.Members = append(s.Members, ms)
	}
	return engine.EncodeState("voting", s)
}

// UnmarshalState implements engine.Persistent.
func (v *Voting) UnmarshalState(data []byte) error {
	v.Fitted = false
	var s votingState
	if err := engine.DecodeState("voting", data, &s); err != nil {
		return err
	}
	c := engine.NewStateCheck("voting")
	task, list := loadTask(c, s.Task, s.Classes, s.Features, v.Models, len(s.Members))
	if !c.OK() {
		return c.Err()
	}
	v.task, v.k, v.p = task, s.Classes, s.Features
	if err := v.checkList(list); err != nil {
		return fmt.Errorf("voting state: %w", err)
	}
	models := make([]engine.Model, len(list))
	errs := make([]float64, len(list))
	for i, r := range list {
		if models[i] = loadMember(c, "voting", r, s.Members[i]); models[i] == nil {
			return c.Err()
		}
		errs[i] = s.Members[i].Error
	}
	v.list, v.models, v.errs = list, models, errs
	// The members must take as many features as the state says.
	v.Fitted = true
	if _, err := v.Predict(rowMatrix(make([]float64, v.p))); err != nil {
		v.list, v.models, v.errs, v.Fitted = nil, nil, nil, false
		return fmt.Errorf("voting state: %w", err)
	}
	return nil
}

// MarshalState implements engine.Persistent.
func (s *Stacking) MarshalState() ([]byte, error) {
	if !s.Fitted {
		return nil, engine.ErrNotFitted
	}
	st := stackingState{Task: s.task.String(), Classes: s.k, Features: s.p}
	for i, m := range s.models {
		ms, err := saveMember("stacking", s.list[i], m, s.errs[i], s.feeds[i].String())
		if err != nil {
			return nil, err
		}
		st.Members = append(st.Members, ms)
	}
	f, err := saveMember("stacking", s.final, s.meta, 0, "")
	if err != nil {
		return nil, err
	}
	st.Final = f
	return engine.EncodeState("stacking", st)
}

// UnmarshalState implements engine.Persistent.
func (s *Stacking) UnmarshalState(data []byte) error {
	s.Fitted = false
	var st stackingState
	if err := engine.DecodeState("stacking", data, &st); err != nil {
		return err
	}
	c := engine.NewStateCheck("stacking")
	task, list := loadTask(c, st.Task, st.Classes, st.Features, s.Models, len(st.Members))
	if !c.OK() {
		return c.Err()
	}
	final, err := s.resolveFinal(task)
	if err != nil {
		return fmt.Errorf("stacking state: %w", err)
	}
	s.task, s.k, s.p, s.final = task, st.Classes, st.Features, final
	models := make([]engine.Model, len(list))
	feeds := make([]feed, len(list))
	errs := make([]float64, len(list))
	for i, r := range list {
		if models[i] = loadMember(c, "stacking", r, st.Members[i]); models[i] == nil {
			return c.Err()
		}
		feeds[i] = s.feedOf(models[i])
		if !c.That(st.Members[i].Feeds == feeds[i].String(), "member %s feeds %q; its model gives %s", r.Text, st.Members[i].Feeds, feeds[i]) {
			return c.Err()
		}
		errs[i] = st.Members[i].Error
	}
	meta := loadMember(c, "stacking", final, st.Final)
	if meta == nil {
		return c.Err()
	}
	s.list, s.models, s.feeds, s.errs, s.meta = list, models, feeds, errs, meta
	// The meta-model must take as many features as the members give.
	if err := s.checkMeta(); err != nil {
		s.list, s.models, s.feeds, s.errs, s.meta = nil, nil, nil, nil, nil
		return fmt.Errorf("stacking state: %w", err)
	}
	s.Fitted = true
	return nil
}

// checkMeta checks, on one row of zeros, that the loaded members and
// meta-model fit together: the members answer for the features, and the
// meta-model for what they give.
func (s *Stacking) checkMeta() error {
	s.Fitted = true
	defer func() { s.Fitted = false }()
	zero := make([]float64, s.p)
	_, err := s.Predict(rowMatrix(zero))
	if errors.Is(err, engine.ErrNotFitted) {
		return errors.New("a member is not fitted")
	}
	return err
}
