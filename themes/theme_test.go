package themes

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"image/color"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/tealab/tealab/internal/termtest"
)

var colorType = reflect.TypeOf((*Color)(nil)).Elem()

// TestEveryThemeDefinesEveryToken walks the Theme struct by reflection so a
// token added later cannot be forgotten in one theme.
func TestEveryThemeDefinesEveryToken(t *testing.T) {
	minLen := map[string]int{"Series": 6, "Classes": 8, "Regions": 8, "Heat": 5}
	seen := map[string]bool{}
	for _, th := range All() {
		t.Run(th.Name, func(t *testing.T) {
			if th.Name == "" || seen[th.Name] {
				t.Fatalf("empty or duplicate theme name %q", th.Name)
			}
			seen[th.Name] = true
			v := reflect.ValueOf(th)
			for i := 0; i < v.NumField(); i++ {
				f, fv := v.Type().Field(i), v.Field(i)
				switch {
				case f.Type == colorType:
					checkColor(t, th, f.Name, fv.Interface())
				case f.Type.Kind() == reflect.Slice && f.Type.Elem() == colorType:
					if fv.Len() < minLen[f.Name] {
						t.Errorf("%s has %d colours, want >= %d", f.Name, fv.Len(), minLen[f.Name])
					}
					for j := 0; j < fv.Len(); j++ {
						checkColor(t, th, f.Name, fv.Index(j).Interface())
					}
				}
			}
			if len(th.Regions) != len(th.Classes) {
				t.Errorf("Regions has %d tints for %d Classes", len(th.Regions), len(th.Classes))
			}
		})
	}
	for _, want := range []string{"dark", "light", "high-contrast", "mono"} {
		if !seen[want] {
			t.Errorf("missing built-in theme %q", want)
		}
	}
}

func checkColor(t *testing.T, th Theme, field string, c any) {
	t.Helper()
	switch c := c.(type) {
	case nil:
		t.Errorf("%s is unset", field)
	case lipgloss.NoColor:
		if !th.Mono {
			t.Errorf("%s is NoColor in a colour theme", field)
		}
	case color.RGBA: // what lipgloss.Color makes of a #RRGGBB colour
		if th.Mono {
			t.Errorf("%s is a colour (%v) in the mono theme", field, c)
		}
		if c.A != 0xff {
			t.Errorf("%s = %v is not opaque", field, c)
		}
	default:
		t.Errorf("%s has unexpected type %T", field, c)
	}
}

func TestByName(t *testing.T) {
	for _, name := range Names() {
		got, ok := ByName(" " + strings.ToUpper(name) + " ")
		if !ok || got.Name != name {
			t.Errorf("ByName(%q) = %q, %v", name, got.Name, ok)
		}
	}
	if _, ok := ByName("solarized"); ok {
		t.Error("ByName found a theme that does not exist")
	}
	if All()[0].Name != "dark" {
		t.Errorf("first theme %q, want the default dark", All()[0].Name)
	}
}

func TestDefaultRespectsNoColor(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	if got := Default(); got.Name != "mono" || !got.Mono {
		t.Errorf("NO_COLOR=1: Default() = %q, want mono", got.Name)
	}
	if got := For(colorprofile.TrueColor, NoColor(os.Getenv), true); got.Name != "mono" {
		t.Errorf("NO_COLOR=1: For = %q, want mono", got.Name)
	}
	// An empty NO_COLOR does not count (no-color.org).
	t.Setenv("NO_COLOR", "")
	if got := Default(); got.Name != "dark" {
		t.Errorf("NO_COLOR empty: Default() = %q, want dark", got.Name)
	}
	if got := For(colorprofile.TrueColor, NoColor(os.Getenv), false); got.Name != "light" {
		t.Errorf("light background: For = %q, want light", got.Name)
	}
	for _, p := range []colorprofile.Profile{colorprofile.ASCII, colorprofile.NoTTY} {
		if got := For(p, false, true); got.Name != "mono" {
			t.Errorf("%v profile: For = %q, want mono", p, got.Name)
		}
	}
}

func TestNewStyles(t *testing.T) {
	for _, th := range All() {
		for _, p := range []colorprofile.Profile{colorprofile.NoTTY, colorprofile.ASCII, colorprofile.ANSI, colorprofile.ANSI256, colorprofile.TrueColor} {
			s := NewStyles(th, p)
			if s.Profile != p {
				t.Fatal("styles lost their profile")
			}
			if want := th.Mono || p <= colorprofile.ASCII; s.Colorless != want {
				t.Errorf("%s/%v: Colorless = %v, want %v", th.Name, p, s.Colorless, want)
			}
			if len(s.Series) != len(th.Series) || len(s.Heat) != len(th.Heat) ||
				len(s.Classes) != len(th.Classes) || len(s.Regions) != len(th.Regions) {
				t.Errorf("%s: palette styles do not match the theme", th.Name)
			}
			out := termtest.Show(s.Title.Render("x")+s.ClassStyle(-9).Render("y")+s.SeriesStyle(100).Render("z")+
				s.HeatStyle(0.5).Render("h")+s.RegionStyle(3).Render("r"), p)
			escapes := strings.Contains(out, "\x1b[")
			colour := regexp.MustCompile(`\x1b\[[0-9;]*[34][0-9;]*m`).MatchString(strings.ReplaceAll(out, "\x1b[1m", ""))
			switch {
			case p == colorprofile.NoTTY && escapes:
				t.Errorf("%s: NoTTY rendered escapes: %q", th.Name, out)
			case p == colorprofile.ASCII && colour:
				t.Errorf("%s: ASCII profile rendered colour: %q", th.Name, out)
			case p == colorprofile.ASCII && !strings.Contains(out, "\x1b[1m"):
				t.Errorf("%s: ASCII profile lost the title's bold: %q", th.Name, out)
			case p == colorprofile.TrueColor && !th.Mono && !strings.Contains(out, "38;2;"):
				t.Errorf("%s: true colour rendered no true colour: %q", th.Name, out)
			case p == colorprofile.ANSI && strings.Contains(out, "38;5;"):
				t.Errorf("%s: 16 colours rendered a 256-colour escape: %q", th.Name, out)
			}
		}
	}
}

func TestHeatIndex(t *testing.T) {
	cases := []struct {
		v    float64
		n    int
		want int
	}{
		{0, 6, 0}, {-1, 6, 0}, {1, 6, 5}, {2, 6, 5}, {0.001, 6, 1}, {0.5, 6, 3}, {0.999, 6, 4},
		{0.5, 2, 1}, {0, 2, 0}, {0.5, 1, 0}, {0.5, 0, 0},
	}
	for _, c := range cases {
		if got := HeatIndex(c.v, c.n); got != c.want {
			t.Errorf("HeatIndex(%v, %d) = %d, want %d", c.v, c.n, got, c.want)
		}
	}
}

// TestNoColourLiteralsOutsideThemes enforces the rule that colours live in
// this package only: no hex colour strings, lipgloss colour constructors or
// raw SGR colour escapes in other non-test Go files of the module.
func TestNoColourLiteralsOutsideThemes(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("no go.mod in %s, the module root this test scans: %v", root, err)
	}
	bad := regexp.MustCompile(`"#[0-9A-Fa-f]{6}"|lipgloss\.(Color|ANSIColor)\(|lipgloss\.(AdaptiveColor|CompleteColor|CompleteAdaptiveColor)\{|\\x1b\[(3|4|9|10)[0-9];|termenv\.RGBColor\(`)
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "themes" || name == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(b), "\n") {
			if bad.MatchString(line) {
				rel, _ := filepath.Rel(root, path)
				t.Errorf("%s:%d: colour literal outside themes/: %s", rel, i+1, strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// the light theme sets no background. Every theme with
// colour fills the whole frame with its own: each line starts with it and
// each reset returns to it.
func TestPaintBackground(t *testing.T) {
	light, _ := ByName("light")
	s := NewStyles(light, colorprofile.TrueColor)
	frame := s.Text.Render("a") + "  " + s.Muted.Render("b") + "\n   "
	out := s.PaintBackground(frame)
	const bg = "48;2;250;250;247"
	for i, line := range strings.Split(out, "\n") {
		if !strings.HasPrefix(line, "\x1b["+bg+"m") {
			t.Errorf("line %d does not start with the background: %q", i, line)
		}
	}
	if strings.Count(out, "\x1b[0;"+bg+"m") < 2 {
		t.Errorf("resets inside the frame do not return to the background: %q", out)
	}
	mono, _ := ByName("mono")
	if got := NewStyles(mono, colorprofile.TrueColor).PaintBackground(frame); got != frame {
		t.Errorf("mono painted a background: %q", got)
	}
}

// NO_COLOR forbids colour, not emphasis: on a terminal its profile is
// ASCII, on which the mono theme draws its bold, faint, underline and
// reverse and no colour; output that shows no attributes (TERM=dumb, not a
// terminal) gets no escape at all.
func TestNoColorKeepsEmphasis(t *testing.T) {
	mono, _ := ByName("mono")
	for _, tc := range []struct {
		name string
		term string
		tty  bool
		want colorprofile.Profile
	}{
		{"NO_COLOR on a colour terminal", "xterm-256color", true, colorprofile.ASCII},
		{"NO_COLOR on a dumb terminal", "dumb", true, colorprofile.NoTTY},
		{"NO_COLOR, not a terminal", "xterm-256color", false, colorprofile.NoTTY},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := []string{"TERM=" + tc.term, "NO_COLOR=1"}
			p := colorprofile.NoTTY
			if tc.tty {
				p = colorprofile.Env(env)
			}
			if p != tc.want {
				t.Fatalf("profile %v, want %v", p, tc.want)
			}
			s := NewStyles(For(p, true, true), p)
			out := termtest.Show(s.SelectedRow.Render("cursor")+s.Title.Render("title")+s.Muted.Render("m")+s.Bad.Render("b"), p)
			want := []string{"\x1b[7m", "\x1b[1m", "\x1b[2m", "\x1b[4"} // underline comes as 4;4
			if tc.want == colorprofile.NoTTY {
				want = nil
			}
			for _, w := range want {
				if !strings.Contains(out, w) {
					t.Errorf("mono drew no %q: %q", w, out)
				}
			}
			if tc.want == colorprofile.NoTTY && strings.Contains(out, "\x1b[") {
				t.Errorf("output that shows no attributes got escapes: %q", out)
			}
			if s.Theme.Name != mono.Name {
				t.Errorf("theme %s under NO_COLOR, want mono", s.Theme.Name)
			}
		})
	}
}
