package views_test

import (
	"context"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"

	"github.com/tealab/tealab/tui/kit"
	"github.com/tealab/tealab/tui/views"
)

// An ensemble's run lists its members' view, which names each member
// with its own error's measure; a single model's run does not.
func TestMembersView(t *testing.T) {
	c, err := kit.NewCommon("mono", colorprofile.NoTTY, false)
	if err != nil {
		t.Fatal(err)
	}
	for model, want := range map[string][]string{
		"voting":   {"hard voting of 3 members", "each member's training error", "logistic", "knn", "tree"},
		"stacking": {"stacking of 3 members into logistic", "out-of-fold error", "logistic (probabilities)"},
	} {
		r := trained(t, model)
		found := false
		for _, s := range views.For(r) {
			if s.Name != "Members" {
				continue
			}
			found = true
			v := s.Make(views.Env{C: c, Ctx: context.Background()}, r)
			v.SetSize(100, 12)
			got := v.View()
			for _, w := range want {
				if !strings.Contains(got, w) {
					t.Errorf("%s: the view lacks %q:\n%s", model, w, got)
				}
			}
		}
		if !found {
			t.Errorf("%s: no Members view among %s", model, names(views.For(r)))
		}
	}
	if strings.Contains(names(views.For(trained(t, "lda"))), "Members") {
		t.Error("an lda run lists Members")
	}
}
