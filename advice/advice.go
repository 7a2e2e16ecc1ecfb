// Package advice says what went wrong and what would fix it in terms any
// front end can put in its own: the engine and the data sets name a remedy
// by its kind (hold out less, drop a column...), and the command line
// writes it as its flags, the lab as its screens and keys. It sits below
// datasets and engine so that both can give advice.
package advice

import (
	"errors"
	"fmt"
	"strings"
)

// Kind is what a remedy changes.
type Kind int

// The remedies the engine and the data sets advise.
const (
	HoldOutLess   Kind = iota + 1 // a smaller test part
	HoldOutMore                   // a larger test part
	CrossValidate                 // k-fold cross-validation (K folds; 0: any)
	LeaveOneOut                   // leave-one-out cross-validation
	Drop                          // leave Columns out (none named: some columns)
	Reduce                        // reduce the features to principal components first
	Model                         // another model (Model names it; "": any)
	Sample                        // fewer rows
)

// Remedy is one thing a person can change to fix a problem.
type Remedy struct {
	Kind    Kind
	Columns []string // Drop: the columns
	K       int      // CrossValidate: the folds
	Model   string   // Model: the model's name
}

// String says the remedy in neutral words.
func (r Remedy) String() string {
	switch r.Kind {
	case HoldOutLess:
		return "hold out less"
	case HoldOutMore:
		return "hold out more"
	case CrossValidate:
		if r.K > 0 {
			return fmt.Sprintf("use %d-fold cross-validation", r.K)
		}
		return "use cross-validation"
	case LeaveOneOut:
		return "use leave-one-out"
	case Drop:
		return "drop " + r.Them()
	case Reduce:
		return "reduce the features to principal components first"
	case Model:
		if r.Model != "" {
			return "use " + r.Model
		}
		return "choose another model"
	case Sample:
		return "sample the rows"
	}
	return ""
}

// Them names a Drop's columns: "it" for one, "them" for more, "columns"
// when none is named.
func (r Remedy) Them() string {
	switch len(r.Columns) {
	case 0:
		return "columns"
	case 1:
		return "it"
	}
	return "them"
}

// Warning is a problem and the remedies that would fix it, if any.
type Warning struct {
	Text     string // the problem, one sentence; ending in ':' or ',' it leads into the remedies itself
	Remedies []Remedy
}

// Say is a warning without a remedy.
func Say(format string, a ...any) Warning { return Warning{Text: fmt.Sprintf(format, a...)} }

// With is w with remedies added.
func (w Warning) With(r ...Remedy) Warning {
	w.Remedies = append(w.Remedies[:len(w.Remedies):len(w.Remedies)], r...)
	return w
}

// String is the warning in neutral words.
func (w Warning) String() string { return w.In(Remedy.String) }

// In writes the warning with its remedies in a front end's words (say),
// after a semicolon unless the text leads into them: "A", "A or B", "A, B,
// or C".
func (w Warning) In(say func(Remedy) string) string {
	if len(w.Remedies) == 0 {
		return w.Text
	}
	sep := "; "
	if strings.HasSuffix(w.Text, ":") || strings.HasSuffix(w.Text, ",") {
		sep = " "
	}
	return w.Text + sep + Either(w.Remedies, say)
}

// All writes each warning as In does.
func All(ws []Warning, say func(Remedy) string) []string {
	var out []string
	for _, w := range ws {
		out = append(out, w.In(say))
	}
	return out
}

// Either joins the remedies as alternatives, each in say's words.
func Either(rs []Remedy, say func(Remedy) string) string {
	words := make([]string, len(rs))
	for i, r := range rs {
		words[i] = say(r)
	}
	switch len(words) {
	case 0:
		return ""
	case 1, 2:
		return strings.Join(words, " or ")
	}
	return strings.Join(words[:len(words)-1], ", ") + ", or " + words[len(words)-1]
}

// Error is a problem that stops a run, with its remedies in brackets after
// it ("... needs 20 GB, more than the 2 GB available (sample the rows)").
// Error says the remedies in neutral words; a front end finds the Error in
// a chain of wrapped errors and says them in its own (Explain).
type Error struct {
	Problem  string
	Remedies []Remedy
	Marks    error // a sentinel errors.Is finds the error by (nil: none)
}

func (e *Error) Error() string { return e.In(Remedy.String) }

// In is the error's message with its remedies in say's words.
func (e *Error) In(say func(Remedy) string) string {
	if len(e.Remedies) == 0 {
		return e.Problem
	}
	return e.Problem + " (" + Either(e.Remedies, say) + ")"
}

// Is reports target as the sentinel the error marks.
func (e *Error) Is(target error) bool { return e.Marks != nil && target == e.Marks }

// Explain is err's message with the remedies of the Error it wraps, if
// any, said in say's words.
func Explain(err error, say func(Remedy) string) string {
	msg := err.Error()
	var e *Error
	if errors.As(err, &e) {
		msg = strings.Replace(msg, e.Error(), e.In(say), 1)
	}
	return msg
}
