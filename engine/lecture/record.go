package lecture

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Status is how a run of an experiment ended.
type Status string

const (
	Done      Status = "done"
	Cancelled Status = "cancelled"
	Failed    Status = "failed"
)

// Record is one run of an experiment, as the run history keeps it: the
// knobs as text, how it ended and its result (partial when cancelled).
type Record struct {
	Experiment string        `json:"experiment"`
	Args       [][2]string   `json:"args"`
	Status     Status        `json:"status"`
	Error      string        `json:"error,omitempty"`
	Result     any           `json:"result,omitempty"`
	Err        error         `json:"-"` // why it failed, as Run said (an engine.ErrLimit stays one)
	Started    time.Time     `json:"-"`
	Wall       time.Duration `json:"-"`
}

// Start runs e with in and returns its record; show sees each partial
// result. A panic inside the experiment is a failure, not a crash.
func Start(ctx context.Context, e *Experiment, in In, show func(Frame)) (rec *Record) {
	rec = &Record{Experiment: e.Name, Args: e.Args(in.Values), Started: time.Now()}
	if show == nil {
		show = func(Frame) {}
	}
	defer func() {
		if r := recover(); r != nil {
			rec.Err = fmt.Errorf("the experiment crashed: %v (please report it)", r)
			rec.Status, rec.Error = Failed, rec.Err.Error()
		}
		rec.Wall = time.Since(rec.Started)
	}()
	res, err := e.Run(ctx, in, show)
	rec.Result = res
	switch {
	case err == nil:
		rec.Status = Done
	case errors.Is(err, context.Canceled):
		rec.Status = Cancelled
	default:
		rec.Status, rec.Error, rec.Err = Failed, err.Error(), err
	}
	return rec
}

// ArgsText is the record's knobs as one line, k=v apart.
func (r *Record) ArgsText() string {
	parts := make([]string, len(r.Args))
	for i, a := range r.Args {
		parts[i] = a[0] + "=" + a[1]
	}
	return strings.Join(parts, " ")
}

// Settings is the record's knobs as a map, as Parse takes them.
func (r *Record) Settings() map[string]string {
	m := make(map[string]string, len(r.Args))
	for _, a := range r.Args {
		m[a[0]] = a[1]
	}
	return m
}

// UnmarshalJSON reads a record back, its result decoded by its
// experiment's Decode (left as raw JSON for an experiment this build does
// not know).
func (r *Record) UnmarshalJSON(b []byte) error {
	type plain Record
	var raw struct {
		plain
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	*r = Record(raw.plain)
	if raw.Experiment == "" {
		return errors.New("a recorded experiment without its name")
	}
	if len(raw.Result) == 0 || string(raw.Result) == "null" {
		return nil
	}
	e, err := Lookup(raw.Experiment)
	if err != nil {
		r.Result = raw.Result
		return nil
	}
	res, err := e.Decode(raw.Result)
	if err != nil {
		return fmt.Errorf("experiment %s: its result: %w", raw.Experiment, err)
	}
	r.Result = res
	return nil
}
