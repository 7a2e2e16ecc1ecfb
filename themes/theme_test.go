package themes

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
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

var hexRe = regexp.MustCompile(`^#[0-9A-Fa-f]{6}$`)

func checkColor(t *testing.T, th Theme, field string, c any) {
	t.Helper()
	switch c := c.(type) {
	case nil:
		t.Errorf("%s is unset", field)
	case lipgloss.NoColor:
		if !th.Mono {
			t.Errorf("%s is NoColor in a colour theme", field)
		}
	case lipgloss.Color:
		if th.Mono {
			t.Errorf("%s is a colour (%s) in the mono theme", field, c)
		}
		if !hexRe.MatchString(string(c)) {
			t.Errorf("%s = %q is not a #RRGGBB colour", field, c)
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
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.TrueColor)
	if got := ForRenderer(r); got.Name != "mono" {
		t.Errorf("NO_COLOR=1: ForRenderer = %q, want mono", got.Name)
	}
	// An empty NO_COLOR does not count (no-color.org).
	t.Setenv("NO_COLOR", "")
	if got := Default(); got.Name != "dark" {
		t.Errorf("NO_COLOR empty: Default() = %q, want dark", got.Name)
	}
	r.SetHasDarkBackground(false)
	if got := ForRenderer(r); got.Name != "light" {
		t.Errorf("light background: ForRenderer = %q, want light", got.Name)
	}
	a := lipgloss.NewRenderer(io.Discard)
	a.SetColorProfile(termenv.Ascii)
	if got := ForRenderer(a); got.Name != "mono" {
		t.Errorf("ASCII profile: ForRenderer = %q, want mono", got.Name)
	}
}

func TestNewStyles(t *testing.T) {
	for _, th := range All() {
		for _, p := range []termenv.Profile{termenv.Ascii, termenv.ANSI, termenv.ANSI256, termenv.TrueColor} {
			r := lipgloss.NewRenderer(io.Discard)
			r.SetColorProfile(p)
			s := NewStyles(th, r)
			if s.Renderer() != r {
				t.Fatal("styles lost their renderer")
			}
			if want := th.Mono || p == termenv.Ascii; s.Colorless != want {
				t.Errorf("%s/%v: Colorless = %v, want %v", th.Name, p, s.Colorless, want)
			}
			if len(s.Series) != len(th.Series) || len(s.Heat) != len(th.Heat) ||
				len(s.Classes) != len(th.Classes) || len(s.Regions) != len(th.Regions) {
				t.Errorf("%s: palette styles do not match the theme", th.Name)
			}
			out := s.Title.Render("x") + s.ClassStyle(-9).Render("y") + s.SeriesStyle(100).Render("z") +
				s.HeatStyle(0.5).Render("h") + s.RegionStyle(3).Render("r")
			plain := strings.Contains(out, "\x1b[")
			if p == termenv.Ascii && plain {
				t.Errorf("%s: ASCII profile rendered escapes: %q", th.Name, out)
			}
			if p == termenv.TrueColor && !th.Mono && !plain {
				t.Errorf("%s: true colour rendered no escapes", th.Name)
			}
		}
	}
	if NewStyles(Default(), nil).Renderer() == nil {
		t.Error("nil renderer not replaced by the default one")
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
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.TrueColor)
	light, _ := ByName("light")
	s := NewStyles(light, r)
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
	if got := NewStyles(mono, r).PaintBackground(frame); got != frame {
		t.Errorf("mono painted a background: %q", got)
	}
}

// fakeEnv is a terminal's environment for termenv.
type fakeEnv map[string]string

func (e fakeEnv) Environ() []string {
	var out []string
	for k, v := range e {
		out = append(out, k+"="+v)
	}
	return out
}

func (e fakeEnv) Getenv(k string) string { return e[k] }

// NO_COLOR selects termenv's ASCII profile, which drops bold,
// faint, underline and reverse with the colours. KeepEmphasis gives a
// terminal that shows attributes the 16-colour profile, on which the mono
// theme draws its emphasis and no colour; other output stays ASCII.
func TestKeepEmphasis(t *testing.T) {
	mono, _ := ByName("mono")
	for _, tc := range []struct {
		name    string
		noColor string
		term    string
		tty     bool
		want    termenv.Profile
	}{
		{"NO_COLOR on a colour terminal", "1", "xterm-256color", true, termenv.ANSI},
		{"NO_COLOR on a dumb terminal", "1", "dumb", true, termenv.Ascii},
		{"NO_COLOR, not a terminal", "1", "xterm-256color", false, termenv.Ascii},
		{"no NO_COLOR", "", "xterm-256color", true, termenv.ANSI256},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("NO_COLOR", tc.noColor)
			env := fakeEnv{"TERM": tc.term, "NO_COLOR": tc.noColor}
			r := lipgloss.NewRenderer(io.Discard, termenv.WithTTY(tc.tty), termenv.WithEnvironment(env))
			KeepEmphasis(r)
			if got := r.ColorProfile(); got != tc.want {
				t.Fatalf("profile %v, want %v", got, tc.want)
			}
			if tc.noColor == "" {
				return
			}
			s := NewStyles(ForRenderer(r), r)
			out := s.SelectedRow.Render("cursor") + s.Title.Render("title") + s.Muted.Render("m") + s.Bad.Render("b")
			want := []string{"\x1b[7m", "\x1b[1m", "\x1b[2m", "\x1b[4"} // underline comes as 4;4
			if tc.want == termenv.Ascii {
				want = nil
			}
			for _, w := range want {
				if !strings.Contains(out, w) {
					t.Errorf("mono drew no %q: %q", w, out)
				}
			}
			if tc.want == termenv.Ascii && strings.Contains(out, "\x1b[") {
				t.Errorf("output that shows no attributes got escapes: %q", out)
			}
			if s.Theme.Name != mono.Name {
				t.Errorf("theme %s under NO_COLOR, want mono", s.Theme.Name)
			}
		})
	}
}
