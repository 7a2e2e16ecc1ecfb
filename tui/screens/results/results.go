package results

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/tealab/tealab/engine/metrics"
	"github.com/tealab/tealab/numfmt"
	"github.com/tealab/tealab/tui/kit"
	"github.com/tealab/tealab/tui/views"
	"github.com/tealab/tealab/tui/widgets"
)

type keys struct {
	Retry    key.Binding
	warnings key.Binding
	// NextTab and PrevTab change the tab while a view's fields have the
	// other keys (viewTyper).
	NextTab, PrevTab key.Binding
	SaveModel        key.Binding
}

// DefaultKeys are the results screen's key bindings.
func DefaultKeys() keys {
	return keys{
		Retry:    kit.Bind("e", "edit & retrain", "e"),
		warnings: kit.Bind("w", "warnings", "w"),
		NextTab:  kit.Bind("tab", "next tab", "tab"),
		PrevTab:  kit.Bind("shift+tab", "previous tab", "shift+tab"),
		// Shifted: a view's own s (sort) stays its own.
		SaveModel: kit.Bind("S", "save model", "S"),
	}
}

// Screen shows what a finished (or cancelled) run learned, through
// the views registered for what the run has (views.go).
type Screen struct {
	c        *kit.Common
	ctx      context.Context
	keys     keys
	Run      *kit.RunRecord
	FromRuns bool // opened from the runs table: esc goes back there

	Tabs         widgets.Tabs
	Views        []views.View
	showWarnings bool // the warnings panel is open
	Save         savePrompt
	w, h         int
}

// New is the results screen, drawn with c.
func New(c *kit.Common, ctx context.Context) *Screen {
	return &Screen{c: c, ctx: ctx, keys: DefaultKeys(), Tabs: widgets.NewTabs(nil, c.Styles)}
}

// Show builds the views of run r and returns the work they start.
func (s *Screen) Show(r *kit.RunRecord, fromRuns bool) tea.Cmd {
	s.FromRuns = fromRuns
	s.close()
	s.Run, s.showWarnings, s.Save = r, false, savePrompt{}
	env := views.Env{C: s.c, Ctx: s.ctx}
	var names []string
	for _, spec := range views.For(r) {
		s.Views = append(s.Views, spec.Make(env, r))
		names = append(names, spec.Name)
	}
	s.Tabs = widgets.NewTabs(names, s.c.Styles)
	// A cancelled run opens on what it has: its history.
	if r.Cancelled() && slices.Contains(names, views.TabHistory) {
		s.Tabs.SetActive(slices.Index(names, views.TabHistory))
	}
	s.SetSize(s.w, s.h)
	var cmds []tea.Cmd
	for _, v := range s.Views {
		if in, ok := v.(views.Initer); ok {
			cmds = append(cmds, in.Init())
		}
	}
	return tea.Batch(cmds...)
}

// close stops the background work of the views shown.
func (s *Screen) close() {
	for _, v := range s.Views {
		if c, ok := v.(views.Closer); ok {
			c.Close()
		}
	}
	s.Views = nil
}

// Active is the view of the active tab; nil when there is none.
func (s *Screen) Active() views.View {
	i := s.Tabs.Active()
	if i < 0 || i >= len(s.Views) {
		return nil
	}
	return s.Views[i]
}

// bodyHeight is the height views get: the screen less the tabs, the score
// line, the warning line and a blank line.
func (s *Screen) bodyHeight() int { return max(s.h-3, 3) }

func (s *Screen) SetSize(w, h int) {
	s.w, s.h = w, h
	s.Tabs.SetSize(w, 1)
	for _, v := range s.Views {
		v.SetSize(w, s.bodyHeight())
	}
}

// Resized tells the views the terminal changed size.
func (s *Screen) Resized() tea.Cmd {
	var cmds []tea.Cmd
	for _, v := range s.Views {
		if r, ok := v.(views.Resizer); ok {
			cmds = append(cmds, r.Resized())
		}
	}
	return tea.Batch(cmds...)
}

// ShownRun is the run the screen shows (the help offers its keys).
func (s *Screen) ShownRun() *kit.RunRecord { return s.Run }

// Typing: the active view's fields have the keys.
func (s *Screen) Typing() bool {
	if s.Save.Open {
		return s.Save.typing()
	}
	t, ok := s.Active().(views.Typer)
	return ok && t.Typing() && !s.showWarnings
}

func (s *Screen) Back() bool {
	if s.Save.back() {
		return true
	}
	if s.showWarnings {
		s.showWarnings = false
		return true
	}
	return false
}

// warnings are the run's, their remedies in the lab's words.
func (s *Screen) warnings() []string {
	if s.Run == nil || s.Run.Result == nil {
		return nil
	}
	return s.c.WarningTexts(s.Run.Result.Warnings)
}

func (s *Screen) activeKeys() []key.Binding {
	if v := s.Active(); v != nil {
		return v.Keys()
	}
	return nil
}

func (s *Screen) ShortHelp() []key.Binding {
	if s.Save.Open {
		return s.Save.keys()
	}
	if s.Typing() {
		return append([]key.Binding{s.keys.NextTab}, s.activeKeys()...)
	}
	ks := []key.Binding{s.Tabs.KeyMap.Next}
	ks = append(ks, s.activeKeys()...)
	if len(s.warnings()) > 0 {
		ks = append(ks, s.keys.warnings)
	}
	ks = append(ks, s.keys.Retry)
	if s.Run == nil || s.Run.NoModel() == "" { // a run without its model says why on the summary
		ks = append(ks, s.keys.SaveModel)
	}
	return ks
}

func (s *Screen) FullHelp() [][]key.Binding {
	if s.Typing() {
		return kit.HelpOf(s.ShortHelp(), []key.Binding{s.keys.PrevTab})
	}
	return kit.HelpOf(s.ShortHelp(), []key.Binding{s.Tabs.KeyMap.Prev})
}

// HeaderInfo is what the header says on the right while the screen shows.
func (s *Screen) HeaderInfo() string {
	if s.Run == nil {
		return ""
	}
	return fmt.Sprintf("run %d · seed %d · %s", s.Run.ID, s.Run.Options.Seed, s.Run.EvalDesc())
}

func (s *Screen) Update(msg tea.Msg) tea.Cmd {
	if s.Run == nil {
		return nil
	}
	km, isKey := msg.(tea.KeyPressMsg)
	if saved, ok := msg.(ModelSavedMsg); ok {
		if saved.run == s.Run.ID {
			s.Save.done(saved, s.Run)
		}
		return nil
	}
	if !isKey {
		// Background work of a view: every view sees it and keeps its own.
		var cmds []tea.Cmd
		for _, v := range s.Views {
			cmds = append(cmds, v.Update(msg))
		}
		return tea.Batch(cmds...)
	}
	s.Save.saved = ""
	if s.Save.Open {
		return s.Save.Update(km, s.Run, s.c)
	}
	if s.Typing() {
		if key.Matches(km, s.keys.NextTab, s.keys.PrevTab) {
			var cmd tea.Cmd
			s.Tabs, cmd = s.Tabs.Update(msg)
			return cmd
		}
		return s.Active().Update(msg)
	}
	switch {
	case key.Matches(km, s.keys.SaveModel):
		s.showWarnings = false
		return s.Save.openFor(s.Run)
	case key.Matches(km, s.keys.Retry):
		id := s.Run.ID
		return func() tea.Msg { return kit.RetrainMsg{Run: id} }
	case key.Matches(km, s.keys.warnings) && len(s.warnings()) > 0:
		s.showWarnings = !s.showWarnings
		return nil
	case key.Matches(km, s.Tabs.KeyMap.Next, s.Tabs.KeyMap.Prev):
		var cmd tea.Cmd
		s.Tabs, cmd = s.Tabs.Update(msg)
		return cmd
	}
	if v := s.Active(); v != nil {
		return v.Update(msg)
	}
	return nil
}

func (s *Screen) View() string {
	st := s.c.Styles
	if s.Run == nil {
		return st.Muted.Render(" No results yet.")
	}
	var top string
	switch {
	case s.Run.Cancelled():
		top = st.Warn.Render(kit.Clip(" "+s.Run.CancelNote(), s.w))
	case s.Run.Err != nil:
		top = st.Error.Render(" " + kit.Clip(s.c.ErrText(s.Run.Err), s.w-2))
	default:
		top = s.scoreLine()
	}
	warn := ""
	if ws := s.warnings(); len(ws) > 0 {
		more := ""
		if len(ws) > 1 {
			more = fmt.Sprintf(" (+%d more, w)", len(ws)-1)
		} else {
			more = " (w)"
		}
		warn = st.Warn.Render(kit.Clip(" ⚠ "+ws[0], s.w-len([]rune(more))-1) + more)
	}
	body := ""
	if v := s.Active(); v != nil {
		body = v.View()
	}
	if s.showWarnings {
		body = s.warningsView()
	}
	if s.Save.Open {
		body = s.Save.View(s)
	}
	if s.Save.saved != "" {
		warn = st.Good.Render(kit.Clip(" ✓ "+s.Save.saved, s.w))
	}
	return s.Tabs.View() + "\n" + top + "\n" + warn + "\n" + body
}

// warningsView lists every warning of the run.
func (s *Screen) warningsView() string {
	st := s.c.Styles
	var b []string
	for _, w := range s.warnings() {
		for i, line := range strings.Split(kit.Wrap(w, s.w-8), "\n") {
			mark := "  "
			if i == 0 {
				mark = "⚠ "
			}
			b = append(b, st.Text.Render(mark+line))
		}
	}
	b = append(b, "", st.Muted.Render("w or esc closes"))
	return kit.Panel(st, "Warnings", strings.Join(b, "\n"), s.w, min(len(b)+2, s.bodyHeight()), true)
}

// scoreLine is the headline: the task's main metrics beside the baseline.
func (s *Screen) scoreLine() string {
	st := s.c.Styles
	res := s.Run.Result
	if res == nil {
		return ""
	}
	var parts []string
	for _, info := range metrics.Headline(s.Run.Task()) {
		v, ok := res.Metrics[info.Name]
		if !ok {
			continue
		}
		p := st.Muted.Render(info.Label+" ") + st.Value.Render(info.Format(v))
		if sd, ok := res.Std[info.Name]; ok && len(res.Folds) > 1 {
			p += st.Muted.Render(" ±" + numfmt.Score(sd))
		}
		if b, ok := res.Baseline[info.Name]; ok {
			p += st.Muted.Render(" (baseline " + numfmt.Score(b) + ")")
		}
		parts = append(parts, p)
	}
	lead := ""
	if f := s.Run.FiguresShort(); f != "" && len(parts) > 0 {
		lead = st.Muted.Render(f + ": ")
	}
	return " " + lead + strings.Join(parts, st.Muted.Render(" · "))
}
