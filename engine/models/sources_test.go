package models

import (
	"regexp"
	"testing"

	"github.com/tealab/tealab/engine"
)

// Every model names where it is taught in words a reader can look up: an
// author and a book, course notes or paper, never an internal shorthand
// such as a bare section number or a seed number.
func TestSourcesNameTheirBooks(t *testing.T) {
	shorthand := regexp.MustCompile(`\x{A7}|\bseed \d`) // \x{A7}: the section sign
	author := regexp.MustCompile(`Shewchuk|Verma|Hocking|Alpaydin|Recht|[A-Z][a-z]+( &| et al\.)?.* (19|20)\d\d`)
	for _, s := range engine.Specs() {
		if shorthand.MatchString(s.Notes) {
			t.Errorf("%s cites %q: name the lecture notes or the paper", s.Name, s.Notes)
		}
		if !author.MatchString(s.Notes) {
			t.Errorf("%s cites %q: no author a reader can look up", s.Name, s.Notes)
		}
	}
}
