package advice

import (
	"errors"
	"fmt"
	"testing"
)

// shout is a front end's words for a remedy: its kind in capitals.
func shout(r Remedy) string { return fmt.Sprintf("KIND%d", r.Kind) }

// A warning's remedies follow a semicolon, or the text's own lead-in (a
// colon, a comma); two are joined by "or", more as a list.
func TestWarningIn(t *testing.T) {
	less, cv, drop := Remedy{Kind: HoldOutLess}, Remedy{Kind: CrossValidate, K: 10}, Remedy{Kind: Drop, Columns: []string{"id"}}
	for _, c := range []struct {
		w    Warning
		want string
	}{
		{Say("no remedy"), "no remedy"},
		{Say("few rows").With(less), "few rows; hold out less"},
		{Say("few rows").With(less, cv), "few rows; hold out less or use 10-fold cross-validation"},
		{Say("%s looks like an id:", "x").With(drop), "x looks like an id: drop it"},
		{Say("if it numbers the rows,").With(drop), "if it numbers the rows, drop it"},
		{Say("big").With(drop, cv, Remedy{Kind: Sample}), "big; drop it, use 10-fold cross-validation, or sample the rows"},
	} {
		if got := c.w.String(); got != c.want {
			t.Errorf("%q, want %q", got, c.want)
		}
	}
	if got := Say("few rows").With(less, cv).In(shout); got != "few rows; KIND1 or KIND3" {
		t.Errorf("in a front end's words: %q", got)
	}
}

// With does not share its remedies with the warning it started from.
func TestWithCopies(t *testing.T) {
	base := Warning{Text: "p", Remedies: append(make([]Remedy, 0, 4), Remedy{Kind: HoldOutLess})} // room to share
	a, b := base.With(Remedy{Kind: Sample}), base.With(Remedy{Kind: Reduce})
	if a.String() != "p; hold out less or sample the rows" || b.String() != "p; hold out less or reduce the features to principal components first" {
		t.Errorf("%q, %q", a, b)
	}
}

// An Error wrapped in context keeps it, and says its remedies in a front
// end's words; it is found by the sentinel it marks.
func TestExplain(t *testing.T) {
	limit := errors.New("limit")
	err := fmt.Errorf("lda on digits: %w", &Error{Problem: "too big", Remedies: []Remedy{{Kind: Sample}}, Marks: limit})
	if err.Error() != "lda on digits: too big (sample the rows)" || !errors.Is(err, limit) {
		t.Errorf("%v, is limit: %v", err, errors.Is(err, limit))
	}
	if got := Explain(err, shout); got != "lda on digits: too big (KIND8)" {
		t.Errorf("explained: %q", got)
	}
	if got := Explain(errors.New("plain"), shout); got != "plain" {
		t.Errorf("plain error: %q", got)
	}
}
