package features

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/rank"
	"github.com/tealab/tealab/numfmt"
	"github.com/tealab/tealab/tui/kit"
	"github.com/tealab/tealab/tui/widgets"
)

type keys struct {
	next, prev, view, up, down, model, again, cancel key.Binding
}

// DefaultKeys are the Features screen's key bindings.
func DefaultKeys() keys {
	return keys{
		next:   kit.Bind("tab/→", "next method", "tab", "right"),
		prev:   kit.Bind("shift+tab/←", "previous method", "shift+tab", "left"),
		view:   kit.Bind("v", "bars / table of ranks", "v"),
		up:     kit.Bind("↑/k", "scroll up", "up", "k"),
		down:   kit.Bind("↓/j", "scroll down", "down", "j"),
		model:  kit.Bind("m", "model for permutation", "m"),
		again:  kit.Bind("enter", "rank again", "enter"),
		cancel: kit.Bind("c", "cancel", "c"),
	}
}

// paneWidth is the least width of one method's bars: below it, fewer
// methods show side by side.
const paneWidth = 36

// Screen ranks the features of the data screen's dataset.
type Screen struct {
	c    *kit.Common
	keys keys
	ctx  context.Context

	ds     *datasets.Dataset
	opts   eval.Options
	models []*engine.Spec // the registry's models that do the task
	model  int            // index into models; -1: no permutation
	values engine.Values  // the session model's values (nil: defaults)
	chosen *engine.Spec   // the session's model

	methods []string       // of the job running or last run
	Results []rank.Ranking // as they arrive, in methods' order
	permBy  string         // the model of the permutation shown
	job     *job
	jobs    int
	prog    rank.Progress
	err     error
	stopped bool // the last job was cancelled

	Focus int  // the method described, and the table's order
	first int  // the first method whose bars show
	Table bool // the table of ranks instead of bars
	off   int  // rows scrolled
	w, h  int
}

// New is the Features screen, drawn with c; its jobs end with ctx.
func New(c *kit.Common, ctx context.Context) *Screen {
	return &Screen{c: c, keys: DefaultKeys(), ctx: ctx, model: -1}
}

// Open ranks ds's features by every method that takes its target; with
// spec (the session's model, its values v and evaluation opts), by its
// permutation importance too when it does the task.
func (s *Screen) Open(ds *datasets.Dataset, spec *engine.Spec, v engine.Values, opts eval.Options) tea.Cmd {
	s.Stop()
	s.ds, s.opts, s.chosen, s.values = ds, opts, spec, v
	s.models, s.model = nil, -1
	for _, m := range engine.Specs() {
		if m.Supports(ds.Task) {
			s.models = append(s.models, m)
			if m == spec {
				s.model = len(s.models) - 1
			}
		}
	}
	s.Focus, s.first, s.off, s.Table = 0, 0, 0, false
	return s.start()
}

// DataName names the data ranked, for the header.
func (s *Screen) DataName() string {
	if s.ds == nil {
		return ""
	}
	return s.ds.Name
}

// spec is the model permutation importance would use; nil none.
func (s *Screen) spec() *engine.Spec {
	if s.model < 0 || s.model >= len(s.models) {
		return nil
	}
	return s.models[s.model]
}

// applicable are the methods that take the data's target, permutation
// when a model is chosen.
func (s *Screen) applicable() []string {
	var out []string
	for _, m := range rank.Methods() {
		if slices.Contains(m.Tasks, s.ds.Task) && (!m.Model || s.spec() != nil) {
			out = append(out, m.Name)
		}
	}
	return out
}

func (s *Screen) start() tea.Cmd {
	s.err, s.stopped, s.Results, s.prog = nil, false, nil, rank.Progress{}
	s.methods = s.applicable()
	if len(s.methods) == 0 {
		s.err = fmt.Errorf("no method ranks features against %s: choose a target on the data screen (s)", s.ds.Task)
		return nil
	}
	opt := rank.Options{Eval: s.opts}
	spec := s.spec()
	if spec != nil {
		opt.Model, opt.Values = spec, spec.Defaults()
		if spec == s.chosen && s.values != nil {
			opt.Values = s.values
		}
		s.permBy = spec.Name
	}
	if err := rank.Check(s.ds, s.methods, opt); err != nil {
		s.err = err
		return nil
	}
	ds, c := s.ds, s.c
	prepare := func(ctx context.Context) (func(), error) {
		release, err := c.HoldSlot(ctx)
		if err != nil {
			return nil, err
		}
		if c.Memory == nil || opt.Model == nil {
			return release, nil
		}
		free, err := c.Memory.ReserveWait(ctx, opt.Model.Name+" on "+ds.Name, eval.MemoryNeed(ds, opt.Model, opt.Values, opt.Eval))
		if err != nil {
			release()
			return nil, err
		}
		return func() { free(); release() }, nil
	}
	fn := func(ctx context.Context, method string, progress func(rank.Progress)) (rank.Ranking, error) {
		o := opt
		o.Progress = progress
		rs, err := rank.Rank(ctx, ds, []string{method}, o)
		if err != nil {
			return rank.Ranking{}, err
		}
		return rs[0], nil
	}
	s.jobs++
	s.job = startJob(s.ctx, s.jobs, s.methods, prepare, fn, s.c.Logf)
	return wait(s.job)
}

// Stop cancels a ranking in flight; its messages are dropped from now on.
func (s *Screen) Stop() {
	if s.job != nil {
		s.job.cancel()
		s.job = nil
	}
}

// Running says whether a ranking is in flight.
func (s *Screen) Running() bool { return s.job != nil }

func (s *Screen) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case ProgressMsg:
		if s.job == nil || msg.Job != s.job.id {
			return nil
		}
		s.prog = msg.P
		return wait(s.job)
	case RankedMsg:
		if s.job == nil || msg.Job != s.job.id {
			return nil
		}
		s.Results = append(s.Results, msg.R)
		s.prog = rank.Progress{}
		return wait(s.job)
	case DoneMsg:
		if s.job == nil || msg.Job != s.job.id {
			return nil
		}
		s.job = nil
		if msg.Err != nil {
			if errors.Is(msg.Err, context.Canceled) {
				s.stopped = true
			} else {
				s.err = msg.Err
			}
		}
		return nil
	case tea.KeyPressMsg:
		return s.key(msg)
	}
	return nil
}

func (s *Screen) key(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(msg, s.keys.cancel):
		if s.job != nil {
			s.job.cancel()
		}
	case key.Matches(msg, s.keys.next):
		s.Focus = max(min(s.Focus+1, len(s.Results)-1), 0)
		s.follow()
	case key.Matches(msg, s.keys.prev):
		s.Focus = max(s.Focus-1, 0)
		s.follow()
	case key.Matches(msg, s.keys.view):
		s.Table = !s.Table
	case key.Matches(msg, s.keys.up):
		s.off = max(s.off-1, 0)
	case key.Matches(msg, s.keys.down):
		s.off = min(s.off+1, max(len(s.ds.Features)-s.rows(), 0))
	case key.Matches(msg, s.keys.model):
		if s.job == nil && len(s.models) > 0 {
			// none, then each model that does the task, then none again
			s.model++
			if s.model >= len(s.models) {
				s.model = -1
			}
		}
	case key.Matches(msg, s.keys.again):
		if s.job == nil && s.ds != nil {
			return s.start()
		}
	}
	return nil
}

func (s *Screen) SetSize(w, h int) {
	s.w, s.h = w, h
	s.follow()
}

func (s *Screen) Typing() bool { return false }

func (s *Screen) Back() bool { return false }

func (s *Screen) ShortHelp() []key.Binding {
	if s.job != nil {
		return []key.Binding{s.keys.cancel, s.keys.next, s.keys.view}
	}
	m := s.keys.model
	m.SetEnabled(len(s.models) > 0)
	return []key.Binding{s.keys.next, s.keys.view, m, s.keys.again}
}

func (s *Screen) FullHelp() [][]key.Binding {
	up, down := s.keys.up, s.keys.down
	scrolls := s.ds != nil && len(s.Results) > 0 && len(s.ds.Features) > s.rows()
	up.SetEnabled(scrolls)
	down.SetEnabled(scrolls)
	return kit.HelpOf(s.ShortHelp(), []key.Binding{s.keys.prev, up, down})
}

// HeaderInfo names the model permutation importance uses.
func (s *Screen) HeaderInfo() string {
	if sp := s.spec(); sp != nil {
		return "permutation: " + sp.Name
	}
	return "permutation: no model (m)"
}

// rows is how many features the body shows at once.
func (s *Screen) rows() int { return max(s.h-8, 3) }

func (s *Screen) View() string {
	st := s.c.Styles
	if s.ds == nil {
		return st.Muted.Render(" Load data on the data screen first.")
	}
	lines := []string{st.Title.Render(kit.Clip(fmt.Sprintf(" Features of %s · %s against %s (%s)", s.ds.Name,
		numfmt.Count(len(s.ds.Features), "feature"), target(s.ds), s.ds.Task), s.w)), s.status(), ""}
	body := s.rows() + 1
	switch {
	case len(s.Results) == 0:
		lines = append(lines, kit.Fit("", s.w, body))
	case s.Table:
		lines = append(lines, kit.Fit(s.table(body), s.w, body))
	case 2*len(s.ds.Features)+3 <= body:
		// Room for both: the bars, and the ranks of every method under them.
		bh := len(s.ds.Features) + 1
		lines = append(lines, kit.Fit(s.bars(bh), s.w, bh), "", kit.Fit(s.table(body-bh-1), s.w, body-bh-1))
	default:
		lines = append(lines, kit.Fit(s.bars(body), s.w, body))
	}
	lines = append(lines, s.about()...)
	return strings.Join(lines, "\n")
}

func target(d *datasets.Dataset) string {
	if d.Target == nil {
		return "no target"
	}
	return d.Target.Name
}

// status says what runs, what went wrong, or what was ranked.
func (s *Screen) status() string {
	st := s.c.Styles
	switch {
	case s.err != nil:
		return st.Error.Render(kit.Clip(" "+s.c.ErrText(s.err), s.w))
	case s.job != nil:
		what := fmt.Sprintf(" ranking: %d of %d methods done", len(s.Results), len(s.methods))
		if s.prog.Total > 0 {
			m, _ := rank.Lookup(s.prog.Method)
			what += fmt.Sprintf(" · %s %d of %d %s", s.prog.Method, s.prog.Done, s.prog.Total, m.Steps)
		}
		return st.Accent.Render(kit.Clip(what+" · c cancels", s.w))
	case s.stopped:
		return st.Warn.Render(kit.Clip(fmt.Sprintf(" cancelled: %d of %d methods ranked · enter ranks again", len(s.Results), len(s.methods)), s.w))
	}
	next := ""
	if sp := s.spec(); sp != nil && sp.Name != s.permBy || sp == nil && rank.NeedModel(s.methods) != "" {
		next = " · enter ranks again with the model chosen"
	}
	return st.Muted.Render(kit.Clip(fmt.Sprintf(" %s ranked · sorted, highest first%s", numfmt.Count(len(s.Results), "method"), next), s.w))
}

// panes is how many methods' bars fit side by side.
func (s *Screen) panes() int { return max(min(s.w/paneWidth, len(s.Results)), 1) }

// shown are the methods whose bars show side by side, the focused among
// them (its index in the slice).
func (s *Screen) shown() ([]rank.Ranking, int) {
	first := max(min(s.first, s.focused(), len(s.Results)-s.panes()), 0)
	return s.Results[first:min(first+s.panes(), len(s.Results))], s.focused() - first
}

// follow moves the bars shown so that the focused method's are among
// them, the last page full.
func (s *Screen) follow() {
	focus, n := s.focused(), s.panes()
	s.first = min(s.first, focus)
	if focus >= s.first+n {
		s.first = focus - n + 1
	}
	s.first = max(min(s.first, len(s.Results)-n), 0)
}

// focused is the index of the method described.
func (s *Screen) focused() int { return max(min(s.Focus, len(s.Results)-1), 0) }

// bars draws the methods shown, each its features' scores highest first.
func (s *Screen) bars(h int) string {
	rs, focus := s.shown()
	gap := 2
	pw := (s.w - gap*(len(rs)-1)) / len(rs)
	panes := make([][]string, len(rs))
	for p, r := range rs {
		order := r.Order()
		var labels []string
		var values []float64
		for _, j := range order[min(s.off, len(order)):] {
			labels = append(labels, r.Features[j])
			values = append(values, r.Scores[j])
		}
		b := widgets.NewBars(labels, values, s.c.Styles)
		b.SetSize(pw, h-1)
		b.SetLabelWidth(pw / 2)
		title := r.Title + " (" + r.Unit + ")"
		if r.Std != nil {
			title += " by " + s.permBy
		}
		head := s.c.Styles.Muted.Render(kit.Clip("  "+title, pw))
		if p == focus {
			head = s.c.Styles.Accent.Render(kit.Clip("▸ "+title, pw))
		}
		panes[p] = append([]string{head}, strings.Split(b.View(), "\n")...)
	}
	out := make([]string, h)
	for i := range out {
		var parts []string
		for p := range panes {
			line := ""
			if i < len(panes[p]) {
				line = panes[p][i]
			}
			parts = append(parts, kit.FitWidth(line, pw))
		}
		out[i] = strings.Join(parts, strings.Repeat(" ", gap))
	}
	return strings.Join(out, "\n")
}

// table lists the features in the first shown method's order (marked ▾)
// with their rank under every method, and permutation importance's mean
// ± sd where the width allows.
func (s *Screen) table(h int) string {
	st := s.c.Styles
	by := s.focused()
	first := s.Results[by]
	names := 7
	for _, f := range first.Features {
		names = max(names, len([]rune(f)))
	}
	names = min(names, max(s.w/4, 10))
	heads := make([]string, len(s.Results))
	width := 5 + names
	for i, r := range s.Results {
		m, _ := rank.Lookup(r.Method)
		heads[i] = m.Short
		if i == by {
			heads[i] = "▾" + heads[i]
		}
		width += 2 + max(len([]rune(heads[i])), 4)
	}
	perm := s.Results[len(s.Results)-1]
	spread := perm.Std != nil && s.w-width >= 18
	head := fmt.Sprintf(" %3s  %-*s", "#", names, "feature")
	for _, hd := range heads {
		head += "  " + pad(hd, max(len([]rune(hd)), 4))
	}
	if spread {
		head += "  permutation ± sd"
	}
	lines := []string{st.Accent.Render(kit.FitWidth(head, s.w))}
	order := first.Order()
	for k, j := range order[min(s.off, len(order)):] {
		if len(lines) >= h {
			break
		}
		row := fmt.Sprintf(" %3d  %-*s", s.off+k+1, names, kit.Clip(first.Features[j], names))
		for i, r := range s.Results {
			cell := fmt.Sprint(r.Ranks[j])
			if r.Notes[j] != "" {
				cell = "–"
			}
			row += "  " + pad(cell, max(len([]rune(heads[i])), 4))
		}
		if spread {
			row += fmt.Sprintf("  %s ± %s", numfmt.Sig(perm.Scores[j], 3), numfmt.Sig(perm.Std[j], 2))
		}
		lines = append(lines, kit.FitWidth(row, s.w))
	}
	return strings.Join(lines, "\n")
}

// pad right-aligns text in w cells.
func pad(text string, w int) string {
	return strings.Repeat(" ", max(w-len([]rune(text)), 0)) + text
}

// about says how the first shown method took the features, and why a
// feature ranks last.
func (s *Screen) about() []string {
	st := s.c.Styles
	if len(s.Results) == 0 {
		return nil
	}
	r := s.Results[s.focused()]
	m, _ := rank.Lookup(r.Method)
	text := fmt.Sprintf("%s, as %s: %s", m.Title, m.Source, r.Numeric)
	if r.Eval != "" {
		text += fmt.Sprintf(" (%s; %s; the mean drop of %d shuffles of each feature)", s.permBy, r.Eval, rank.DefaultRepeats)
	}
	wrapped := strings.Split(kit.Wrap(text, s.w-2), "\n")
	if len(wrapped) > 3 {
		wrapped = append(wrapped[:2], kit.Clip(strings.Join(wrapped[2:], " "), s.w-2))
	}
	var out []string
	for _, l := range wrapped {
		out = append(out, st.Muted.Render(" "+l))
	}
	var dead []string
	for j, n := range r.Notes {
		if n != "" {
			dead = append(dead, r.Features[j]+": "+n)
		}
	}
	if len(dead) > 0 {
		out = append(out, st.Warn.Render(kit.Clip(" "+strings.Join(dead, " · "), s.w)))
	}
	return out
}
