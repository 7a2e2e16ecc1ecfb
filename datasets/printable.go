package datasets

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
)

// Printable returns s with every control character escaped as Go writes it
// (\n, \t, \x1b, \u0085): a name or level from a file may hold a newline or
// a terminal escape, which would break a table's rows or repaint the
// screen. Text without control characters comes back unchanged.
func Printable(s string) string {
	if !strings.ContainsFunc(s, isControl) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x80 && isControl(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case isControl(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isControl(r rune) bool { return unicode.IsControl(r) }

// Printable returns a copy of the table whose name, column names, levels
// and row names are Printable, for a screen to show and choose from; the
// data are shared.
func (t *Table) Printable() *Table {
	out := *t
	out.Name = Printable(t.Name)
	out.RowNames = printables(t.RowNames)
	out.Columns = make([]Column, len(t.Columns))
	for j, c := range t.Columns {
		c.Name = Printable(c.Name)
		c.Levels = printables(c.Levels)
		out.Columns[j] = c
	}
	return &out
}

// printables is names made Printable; names itself when none needs it.
func printables(names []string) []string {
	if !slices.ContainsFunc(names, func(s string) bool { return strings.ContainsFunc(s, isControl) }) {
		return names
	}
	out := make([]string, len(names))
	for k, s := range names {
		out[k] = Printable(s)
	}
	return out
}
