package kit

import (
	"fmt"
	"strings"
	"unicode"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/tealab/tealab/themes"
)

// ListFilter narrows a long list as bubbles' list does: / opens a field,
// what is typed keeps the items whose text holds it (any case), enter
// keeps the filter and gives the keys back to the list, esc clears it.
// Every list screen (models, data sets, columns, runs) holds one.
type ListFilter struct {
	Field   TextField
	Editing bool // the field has the keyboard
	keys    filterKeys
}

type filterKeys struct {
	open, keep, clear key.Binding
}

// NewListFilter is an empty filter, not being typed in.
func NewListFilter() ListFilter {
	f := NewInput()
	f.Prompt = "/"
	f.CharLimit = 64
	return ListFilter{Field: f, keys: filterKeys{
		open:  Bind("/", "filter", "/"),
		keep:  Bind("enter", "keep filter", "enter"),
		clear: Bind("esc", "clear filter", "esc"),
	}}
}

// Active says a filter narrows the list (being typed or kept).
func (f *ListFilter) Active() bool { return f.Editing || f.query() != "" }

func (f *ListFilter) query() string { return strings.TrimSpace(f.Field.Value()) }

// Match says whether an item's text passes the filter.
func (f *ListFilter) Match(text string) bool {
	q := f.query()
	return q == "" || strings.Contains(strings.ToLower(text), strings.ToLower(q))
}

// Exactness ranks how exactly an item answers the query, for the cursor:
// 3 when its name or whole title is the query, 2 when a whole word of its
// title is, 1 when its name holds the query, 0 otherwise (any case; 0
// without a query). A list puts its cursor on its best item, so that /tree
// lands on the decision tree, not on AdaBoost, the first of "trees and
// ensembles", /logistic on logistic, not klogistic, and /boost on
// adaboost, not on the first model of the family "boosting".
func (f *ListFilter) Exactness(name, title string) int {
	q := f.query()
	switch {
	case q == "":
		return 0
	case strings.EqualFold(name, q) || strings.EqualFold(title, q):
		return 3
	}
	for _, w := range strings.FieldsFunc(title, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if strings.EqualFold(w, q) {
			return 2
		}
	}
	if strings.Contains(strings.ToLower(name), strings.ToLower(q)) {
		return 1
	}
	return 0
}

// Update takes the key when the filter wants it: / opens the field; while
// it is open every key edits it, enter keeps and esc clears; a kept filter
// is cleared by esc. changed says the query may have changed.
func (f *ListFilter) Update(msg tea.KeyPressMsg) (used, changed bool) {
	if !f.Editing {
		switch {
		case key.Matches(msg, f.keys.open):
			f.Editing = true
			f.Field.Focus()
			return true, false
		case key.Matches(msg, f.keys.clear) && f.query() != "":
			f.Clear()
			return true, true
		}
		return false, false
	}
	switch {
	case key.Matches(msg, f.keys.keep):
		f.Editing = false
		f.Field.Blur()
	case key.Matches(msg, f.keys.clear):
		f.Clear()
	default:
		f.Field, _ = f.Field.Update(msg)
	}
	return true, true
}

// Clear empties the filter and stops typing in it.
func (f *ListFilter) Clear() {
	f.Editing = false
	f.Field.Blur()
	f.Field.SetValue("")
}

// Help is the filter's keys for the footer and the help: / when closed
// (and esc to clear a kept filter), enter and esc while typing.
func (f *ListFilter) Help() []key.Binding {
	switch {
	case f.Editing:
		return []key.Binding{f.keys.keep, f.keys.clear}
	case f.query() != "":
		return []key.Binding{f.keys.open, f.keys.clear}
	}
	return []key.Binding{f.keys.open}
}

// Status is the filter's line: the field while typed, the kept query, and
// how many items of all pass ("12 of 26"); "" without a filter.
func (f *ListFilter) Status(st *themes.Styles, shown, all int) string {
	if !f.Active() {
		return ""
	}
	count := fmt.Sprintf("%d of %d", shown, all)
	if f.Editing {
		return f.Field.View(st, 0) + "  " + count
	}
	return "/" + f.query() + "  " + count + " (esc clears)"
}
