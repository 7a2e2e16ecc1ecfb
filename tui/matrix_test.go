package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/tealab/tealab/tui/screens/data"
)

// onMatrix opens the lab on opt's data at w x h, on the preview's Matrix
// tab.
func onMatrix(t *testing.T, opt Options, w, h int) *harness {
	t.Helper()
	hs := newHarness(t, opt, w, h)
	hs.previewTab(data.PreviewMatrix)
	return hs
}

// The scatter-plot matrix of wine at 120x40 and 80x24, in colour and as
// NO_COLOR draws it, against goldens (testdata/TestScatterMatrixGoldens,
// -update rewrites them); what must be seen is checked in words first.
func TestScatterMatrixGoldens(t *testing.T) {
	for _, tc := range []struct {
		w, h  int
		mono  bool
		shown string // the window of the matrix the title names
	}{
		{120, 40, false, "rows 1-6, columns 1-6 of 13"},
		{80, 24, false, "rows 1-3,"}, // the title is cut at 80
		{120, 40, true, "rows 1-6, columns 1-6 of 13"},
		{80, 24, true, "rows 1-3,"},
	} {
		name := fmt.Sprintf("%dx%d", tc.w, tc.h)
		if tc.mono {
			name += " mono"
		}
		t.Run(name, func(t *testing.T) {
			if tc.mono {
				withNoColor(t)
			} else {
				withLook(t, "dark", colorprofile.TrueColor)
			}
			hs := onMatrix(t, Options{Data: "wine"}, tc.w, tc.h)
			hs.press("down", "l", "l") // the cursor off the diagonal
			v := hs.a.View()
			plain := ansi.Strip(v)
			checkFrame(t, plain, tc.w, tc.h)
			mustContain(t, plain, "alcohol", "malic_acid", "ash", "class_0", "class_1", "class_2",
				"malic_acid against ash by class", tc.shown,
				"━━━━", "┃", "●", "○", "◆")
			if tc.mono {
				if bad := colourSGR(v); len(bad) > 0 {
					t.Errorf("colour drawn (SGR %s)", strings.Join(bad, ","))
				}
				// The histograms' classes by shade, named in the legend.
				mustContain(t, plain, "●█ class_0", "○▓ class_1", "◆▒ class_2")
				if len(linesWith(v, reverse)) == 0 {
					t.Errorf("the cursor's names are not reversed:\n%q", v)
				}
			} else if len(colourSGR(v)) == 0 {
				t.Errorf("no colour drawn:\n%q", v)
			}
			t.Cleanup(func() { golden.RequireEqual(t, v) })
		})
	}
}

// The cursor moves over the cells and the window scrolls with it; tab
// (not the arrows, which move the cursor) changes the tab; enter opens
// the cell's pair in the full scatter, or a feature's histogram on the
// diagonal; c chooses the features.
func TestScatterMatrixKeys(t *testing.T) {
	t.Parallel()
	hs := onMatrix(t, Options{Data: "wine"}, 120, 40)
	mustContain(t, hs.View(), "alcohol · histogram by class", "enter full scatter", "c choose features", "tab next tab")
	hs.press("right", "right", "down")
	if hs.a.data.Tabs.ActiveName() != data.PreviewMatrix {
		t.Fatalf("→ left the Matrix tab for %q", hs.a.data.Tabs.ActiveName())
	}
	mustContain(t, hs.View(), "malic_acid against ash by class")
	for range 12 {
		hs.press("l")
	}
	mustContain(t, hs.View(), "malic_acid against proline by class", "columns 8-13 of 13", "‹")
	for range 12 {
		hs.press("j")
	}
	mustContain(t, hs.View(), "proline · histogram by class", "rows 8-13")
	hs.press("k", "enter") // od280… against proline
	if hs.a.data.Tabs.ActiveName() != data.PreviewPlot {
		t.Fatalf("enter opened %q, want the plot", hs.a.data.Tabs.ActiveName())
	}
	mustContain(t, hs.View(), "od280_od315_of_diluted_wines against proline · by class")
	hs.previewTab(data.PreviewMatrix)
	hs.press("j", "enter") // the diagonal: proline's histogram
	if hs.a.data.Tabs.ActiveName() != data.PreviewHist {
		t.Fatalf("enter on the diagonal opened %q, want the histograms", hs.a.data.Tabs.ActiveName())
	}
	mustContain(t, hs.View(), "▸ proline", "proline by class")
	hs.previewTab(data.PreviewMatrix)

	// Choosing: none, then flavanoids and proline.
	hs.press("c")
	mustContain(t, hs.View(), "Features in the matrix: 13 of 13 checked", "[x] alcohol")
	hs.press("a")
	mustContain(t, hs.View(), "0 of 13 checked (check at least two)", "[ ] alcohol")
	hs.press("enter") // not with fewer than two
	mustContain(t, hs.View(), "0 of 13 checked")
	for range 6 {
		hs.press("down")
	}
	hs.press("space")
	for range 6 {
		hs.press("down")
	}
	hs.press("space", "enter")
	v := hs.View()
	mustContain(t, v, "flavanoids · histogram by class", "flavanoids", "proline")
	if strings.Contains(v, "alcohol") || strings.Contains(v, "of 13") {
		t.Errorf("the matrix shows more than flavanoids and proline:\n%s", v)
	}
	// esc closes the chooser without changing the features, and esc again
	// leaves the preview.
	hs.press("c", "a", "esc")
	mustContain(t, hs.View(), "flavanoids · histogram by class")
	if hs.a.data.Focus != data.FocusPreview {
		t.Fatalf("esc in the chooser left the preview")
	}
	hs.press("tab")
	if hs.a.data.Tabs.ActiveName() != data.PreviewHist {
		t.Errorf("tab: %q", hs.a.data.Tabs.ActiveName())
	}
}

// On a terminal too small for a cell nothing panics and every frame has
// the terminal's size.
func TestScatterMatrixTinyTerminal(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{1, 1}, {20, 6}, {40, 10}, {60, 12}, {70, 16}, {200, 60}} {
		hs := onMatrix(t, Options{Data: "wine"}, size[0], size[1])
		for _, k := range []string{"right", "down", "enter"} {
			hs.previewTab(data.PreviewMatrix)
			hs.press(k)
			checkFrame(t, hs.View(), size[0], size[1])
		}
	}
}

// With one numeric feature there is no pair: the tab says why.
func TestScatterMatrixOneNumericFeature(t *testing.T) {
	t.Parallel()
	hs := onMatrix(t, Options{Data: "cubic"}, 120, 40)
	mustContain(t, hs.View(), "A scatter-plot matrix needs two numeric features:", "these data have one numeri", "(x0)")
	p := writeFile(t, "n.csv", "colour,size,y\nred,1,a\nblue,2,b\nred,3,a\nblue,4,b\n")
	hs = onMatrix(t, Options{Data: p}, 120, 40)
	mustContain(t, hs.View(), "these data have one numeri", "(size)")
	hs.press("c", "enter", "right")
	checkFrame(t, hs.View(), 120, 40)
}

// Regression: the cells are coloured by the target's range, named in the
// legend.
func TestScatterMatrixRegression(t *testing.T) {
	t.Parallel()
	hs := onMatrix(t, Options{Data: "diabetes"}, 120, 40)
	hs.press("down")
	mustContain(t, hs.View(), "sex against age by progression", "●", "○", "◆", "25–")
}

// Nominal features are left out, and large data are drawn from an even
// sample, and both are said.
func TestScatterMatrixSaysWhatIsLeftOut(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("a,b,kind,y\n")
	for i := range 2500 {
		fmt.Fprintf(&b, "%d,%d,%c,%d\n", i, (i*37)%101, 'p'+rune(i%3), i%2)
	}
	hs := onMatrix(t, Options{Data: writeFile(t, "big.csv", b.String())}, 120, 40)
	mustContain(t, hs.View(), "2000 of 2500 rows drawn", "1 nominal feature left out")
}

// The theme changes under the matrix (t): the histograms kept from the
// colour theme were drawn in eighths, not a shade per class, in mono.
func TestScatterMatrixFollowsTheTheme(t *testing.T) {
	withLook(t, "dark", colorprofile.TrueColor)
	hs := onMatrix(t, Options{Data: "wine"}, 120, 40)
	// alcohol's row: its histogram, first.
	row := func() string { return strings.Join(linesWith(ansi.Strip(hs.View()), " alcohol "), "\n") }
	if strings.ContainsAny(row(), "▓▒") {
		t.Fatalf("the colour theme drew shades: %s", row())
	}
	for range 8 {
		if hs.a.c.Styles.Colorless {
			break
		}
		hs.press("t")
	}
	if !hs.a.c.Styles.Colorless {
		t.Fatal("no theme without colour")
	}
	if !strings.ContainsAny(row(), "▓▒") {
		t.Errorf("the mono theme's histogram has no shade per class: %s", row())
	}
}
