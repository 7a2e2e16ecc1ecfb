package kit

import "strings"

// Wrap breaks plain text into lines of at most w cells at spaces.
func Wrap(text string, w int) string {
	if w < 10 {
		return text
	}
	var out []string
	for _, para := range strings.Split(text, "\n") {
		line := ""
		for _, word := range strings.Fields(para) {
			if line != "" && len([]rune(line))+1+len([]rune(word)) > w {
				out = append(out, line)
				line = ""
			}
			if line != "" {
				line += " "
			}
			line += word
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

// Room for the wide layout: the live views stacked on the left, the live
// figures in a column beside them.
const (
	WideW = 160
	WideH = 40
)

// Minimum terminal size the screens are laid out for.
const (
	MinWidth  = 80
	MinHeight = 24
)
