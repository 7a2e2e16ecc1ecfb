package termtest

import (
	"strings"

	"github.com/charmbracelet/colorprofile"
)

// Show is frame as bubbletea sends it to a terminal of profile p: colours
// brought down to what it shows (none on ASCII, where bold, faint,
// underline and reverse stay), and no escape at all on NoTTY.
func Show(frame string, p colorprofile.Profile) string {
	var b strings.Builder
	w := colorprofile.Writer{Forward: &b, Profile: p}
	_, _ = w.Write([]byte(frame))
	return b.String()
}
