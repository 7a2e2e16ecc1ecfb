package cli

import (
	"math"
	"strings"
	"testing"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
)

// The commands that take evaluation settings, each with what it declares
// it takes, and the arguments that bring it to reading them.
var evalCommands = []struct {
	name string
	use  evalUse
	args []string
}{
	{"tealab", trainEval, []string{"--theme", "neon"}}, // the lab's start-up flags; an unknown theme keeps the lab closed
	{"train", trainEval, []string{"--data", "iris", "--model", "lda"}},
	{"sweep", tuneEval, []string{"--data", "iris", "--model", "knn", "--param", "k=1..3"}},
	{"learning-curve", tuneEval, []string{"--data", "iris", "--model", "knn"}},
	{"rank", rankEval, []string{"--data", "iris", "--method", "permutation", "--model", "lda"}},
	{"compare", compareEval, []string{"--data", "iris", "--model", "lda", "--model", "knn"}},
}

// helpFlags reads `tealab help CMD`: each flag's line ("-split float")
// and its usage.
func helpFlags(t *testing.T, cmd string) map[string][2]string {
	t.Helper()
	out, errOut, status := run(t, "help", cmd)
	if status != 0 {
		t.Fatalf("help %s: status %d: %s", cmd, status, errOut)
	}
	flags := map[string][2]string{}
	lines := strings.Split(out, "\n")
	for i, line := range lines {
		if !strings.HasPrefix(line, "  -") {
			continue
		}
		name, _, _ := strings.Cut(strings.TrimPrefix(line, "  -"), " ")
		usage := ""
		if i+1 < len(lines) {
			usage = strings.TrimSpace(lines[i+1])
		}
		flags[name] = [2]string{strings.TrimSpace(line), usage}
	}
	return flags
}

// Every command registers each declared evaluation setting by its
// declared flag, default, help and range, or says why it does not take
// it; no other command has such a flag.
func TestEvalFlagsFollowTheDeclaration(t *testing.T) {
	declared := map[string]bool{}
	for _, s := range evalSettings() {
		declared[s.Flag] = s.Flag != ""
	}
	for _, sc := range eval.Schemes() {
		declared[sc.Flag] = true
	}
	covered := map[string]bool{}
	for _, c := range evalCommands {
		covered[c.name] = true
		flags := helpFlags(t, c.name)
		def := (&evalFlags{use: c.use}).defaults()
		for _, s := range evalSettings() {
			reason, omitted := c.use.omit[s.Name]
			if omitted && reason == "" {
				t.Errorf("%s omits %s without saying why", c.name, s.Name)
			}
			if s.Name == eval.SettingScheme {
				if omitted != (c.use.fixed != "") {
					t.Errorf("%s: scheme fixed at %q, omitted %v", c.name, c.use.fixed, omitted)
				}
				for _, sc := range eval.Schemes() {
					// With the scheme fixed, a switch of another is not
					// there; a setting's flag answers for its setting.
					if _, ok := flags[sc.Flag]; !ok && !omitted || ok && omitted && sc.Switch() {
						t.Errorf("%s: --%s (choosing %s) registered %v, the scheme omitted %v", c.name, sc.Flag, sc.Name, ok, omitted)
					}
				}
				continue
			}
			f, ok := flags[s.Flag]
			switch {
			case omitted && ok:
				t.Errorf("%s omits %s (%s) but has --%s", c.name, s.Name, reason, s.Flag)
			case !omitted && !ok:
				t.Errorf("%s neither takes %s (--%s) nor says why not", c.name, s.Name, s.Flag)
			case ok:
				if d, ok := c.use.defaults[s.Name]; ok {
					s.Default = d
				}
				header, usage := f[0], f[1]
				if !strings.HasPrefix(usage, s.Help+"; ") || !strings.Contains(usage, strings.ReplaceAll(flagUsage(s), "`", "")) {
					t.Errorf("%s --%s: usage %q, declared %q", c.name, s.Flag, usage, flagUsage(s))
				}
				if s.Kind == engine.Choice && header != "-"+s.Flag+" "+strings.Join(s.Choices, "|") {
					t.Errorf("%s: %q", c.name, header)
				}
				shown := strings.HasSuffix(usage, "(default "+engine.Format(s.Default)+")")
				if applies, _ := s.AppliesTo(def); applies != shown && engine.Format(s.Default) != "" {
					t.Errorf("%s --%s: default shown %v, but it applies by default %v: %q", c.name, s.Flag, shown, applies, usage)
				}
			}
		}
		for name := range c.use.omit {
			if _, ok := eval.LookupSetting(name); !ok && !strings.Contains(name, "repeats") {
				t.Errorf("%s omits %q, which is not declared", c.name, name)
			}
		}
	}
	for _, cmd := range commands() {
		if covered[cmd.name] {
			continue
		}
		for name := range helpFlags(t, cmd.name) {
			if declared[name] {
				t.Errorf("%s has --%s, an evaluation flag, outside the commands that follow the declaration", cmd.name, name)
			}
		}
	}
}

// A value a setting does not take is refused by every command that takes
// it in the same words: the flag, what was typed, and the declared range.
func TestEvalFlagErrorsNameTheRange(t *testing.T) {
	for _, c := range evalCommands {
		for _, s := range evalSettings() {
			if _, omitted := c.use.omit[s.Name]; omitted || s.Flag == "" {
				continue
			}
			var bad string
			switch {
			case s.Name == eval.SettingSeed:
				bad = "-1"
			case s.Kind == engine.Choice:
				bad = "bogus"
			case s.Kind == engine.Int && !math.IsNaN(s.Min):
				bad = engine.Format(int(s.Min) - 1)
			case s.Kind == engine.Float && !math.IsNaN(s.Max):
				bad = engine.Format(s.Max + 1)
			default:
				continue
			}
			_, err := s.Read(bad)
			if err == nil {
				t.Fatalf("%s takes %q", s.Name, bad)
			}
			prefix := c.name + ": "
			if c.name == "tealab" {
				prefix = ""
			}
			want := "tealab: " + prefix + "--" + s.Flag + " " + err.(*eval.SettingError).Reason + "\n"
			args := append(append([]string{c.name}, c.args...), "--"+s.Flag, bad)
			if c.name == "tealab" {
				args = args[1:]
			}
			_, errOut, status := run(t, args...)
			if status != exitUsage || errOut != want {
				t.Errorf("%s --%s %s: status %d, %q; want %q", c.name, s.Flag, bad, status, errOut, want)
			}
		}
	}
}

// --split's range is the declaration's: its ends are taken, beyond them
// is refused.
func TestSplitRangeIsDeclared(t *testing.T) {
	s, _ := eval.LookupSetting(eval.SettingSplit)
	for _, x := range []float64{s.Min, s.Max} {
		if _, errOut, status := run(t, "train", "--data", "iris", "--model", "logistic", "--split", engine.Format(x), "--no-history"); status != 0 {
			t.Errorf("--split %v: status %d: %s", x, status, errOut)
		}
	}
	_, errOut, _ := run(t, "train", "--data", "iris", "--model", "lda", "--split", "1")
	if !strings.Contains(errOut, "--split \"1\" is out of range (float in ["+engine.Format(s.Min)+", "+engine.Format(s.Max)+"])") {
		t.Errorf("--split 1: %s", errOut)
	}
}
