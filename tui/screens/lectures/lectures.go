package lectures

import (
	"bytes"
	"context"
	"os"
	"slices"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine/lecture"
	"github.com/tealab/tealab/engine/runs"
	"github.com/tealab/tealab/report"
	"github.com/tealab/tealab/tui/kit"
)

type keys struct {
	up, down, open, run, back, play, next, prev, first, last, cancel, edit, again, export key.Binding
}

// DefaultKeys are the screen's key bindings.
func DefaultKeys() keys {
	return keys{
		up:     kit.Bind("↑/k", "up", "up", "k"),
		down:   kit.Bind("↓/j", "down", "down", "j"),
		open:   kit.Bind("enter", "open", "enter"),
		run:    kit.Bind("enter", "run", "enter"),
		back:   kit.Bind("esc", "back", "esc"),
		play:   kit.Bind("space", "play", "space"),
		next:   kit.Bind("→/l", "next frame", "right", "l"),
		prev:   kit.Bind("←/h", "previous frame", "left", "h"),
		first:  kit.Bind("home", "first frame", "home"),
		last:   kit.Bind("end", "last frame", "end"),
		cancel: kit.Bind("c", "cancel", "c"),
		edit:   kit.Bind("e", "edit knobs", "e"),
		again:  kit.Bind("r", "run again", "r"),
		export: kit.Bind("x", "export Markdown", "x"),
	}
}

type mode int

const (
	menu mode = iota
	knobs
	picture
)

// PlayEvery is the time a frame shows while a picture plays (tests play
// at once).
var PlayEvery = 120 * time.Millisecond

// Screen is the experiments' screen.
type Screen struct {
	c    *kit.Common
	ctx  context.Context
	keys keys
	mode mode
	w, h int

	cursor int           // into the menu's items
	past   []*runs.Entry // the history's experiments, newest first
	form   *form         // the knobs of the experiment chosen
	exp    *lecture.Experiment
	rec    *lecture.Record // the run shown: running (Status ""), or ended
	last   lecture.Frame   // the latest partial result of the run in flight
	job    *job
	jobs   int
	frame  int // the frame shown, of report.LectureFrames
	play   int // the play in progress (0: none); ticks of others are dropped
	plays  int
	note   string // what the last export or record said
	err    error  // why the knobs cannot run
}

// New is the screen, drawn with c; its runs end with ctx.
func New(c *kit.Common, ctx context.Context) *Screen {
	return &Screen{c: c, ctx: ctx, keys: DefaultKeys()}
}

// SetPast gives the screen the history's experiments (any order), after
// any this session recorded first.
func (s *Screen) SetPast(es []*runs.Entry) {
	s.past = append(slices.Clone(es), s.past...)
	slices.SortStableFunc(s.past, func(a, b *runs.Entry) int { return b.Time.Compare(a.Time) })
}

func (s *Screen) SetSize(w, h int) { s.w, s.h = w, h }

// Typing says whether a text field of the knobs has the keys.
func (s *Screen) Typing() bool {
	if s.mode != knobs || s.form == nil {
		return false
	}
	c := s.form.current()
	return c != nil && c.choices() == nil
}

// Back closes the knobs or the picture, back to the menu.
func (s *Screen) Back() bool {
	if s.mode == menu {
		return false
	}
	s.mode, s.play = menu, 0
	return true
}

// Knob is the name of the knob under the form's cursor ("" outside the
// form).
func (s *Screen) Knob() string {
	if s.mode != knobs || s.form == nil || s.form.current() == nil {
		return ""
	}
	return s.form.current().p.Name
}

// Field is the text field under the form's cursor (nil: none).
func (s *Screen) Field() *kit.TextField {
	if s.mode != knobs || s.form == nil {
		return nil
	}
	if c := s.form.current(); c != nil && c.choices() == nil {
		return &c.in
	}
	return nil
}

// Shown is the run of an experiment shown (nil: none yet).
func (s *Screen) Shown() *lecture.Record { return s.rec }

// Running says whether an experiment is being computed.
func (s *Screen) Running() bool { return s.job != nil }

// Stop cancels the experiment in flight.
func (s *Screen) Stop() {
	if s.job != nil {
		s.job.stop()
	}
}

// HeaderInfo names the experiment shown.
func (s *Screen) HeaderInfo() string {
	if s.mode != menu && s.exp != nil {
		return "tealab lab " + s.exp.Name
	}
	return "from the lecture notes"
}

// items is the menu: every experiment, then the recorded runs.
func (s *Screen) items() int { return len(lecture.All()) + len(s.past) }

func (s *Screen) ShortHelp() []key.Binding {
	switch s.mode {
	case knobs:
		return []key.Binding{s.keys.run, kit.Bind("↑/↓", "knob", "up", "down"), kit.Bind("←/→", "choose", "left", "right")}
	case picture:
		ks := []key.Binding{}
		if s.job != nil {
			return append(ks, s.keys.cancel)
		}
		if s.frames() > 1 {
			ks = append(ks, s.keys.play, kit.Bind("←/→", "frame", "left", "right"))
		}
		return append(ks, s.keys.edit, s.keys.again, s.keys.export)
	}
	return []key.Binding{s.keys.open, kit.Bind("↑/↓", "choose", "up", "down")}
}

// FullHelp adds the keys that move about where the screen is: the menu's
// cursor, a picture's frames.
func (s *Screen) FullHelp() [][]key.Binding {
	var more []key.Binding
	switch {
	case s.mode == menu:
		more = []key.Binding{s.keys.up, s.keys.down}
	case s.mode == picture && s.frames() > 1:
		more = []key.Binding{s.keys.next, s.keys.prev, s.keys.first, s.keys.last}
	}
	return kit.HelpOf(s.ShortHelp(), more)
}

// frames is how many frames the picture shown moves through.
func (s *Screen) frames() int {
	if s.rec == nil || s.job != nil {
		return 0
	}
	return report.LectureFrames(s.rec.Experiment, s.rec.Result)
}

func (s *Screen) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case FrameMsg:
		if s.job == nil || msg.Job != s.job.id {
			return nil
		}
		s.last = msg.F
		return wait(s.job)
	case DoneMsg:
		if s.job == nil || msg.Job != s.job.id {
			return nil
		}
		s.job, s.rec = nil, msg.Rec
		s.frame = max(s.frames()-1, 0)
		var cmd tea.Cmd
		if s.frames() > 1 && msg.Rec.Status == lecture.Done {
			cmd = s.startPlay() // the descent, the rotation: watched, then kept
		}
		return tea.Batch(cmd, s.record(msg.Rec))
	case SavedMsg:
		if msg.err != nil {
			s.note = "not recorded: " + s.c.Hide(msg.err.Error())
		} else {
			s.past = append([]*runs.Entry{msg.entry}, s.past...)
		}
		return nil
	case TickMsg:
		if msg.Play == 0 || msg.Play != s.play {
			return nil
		}
		if s.frame >= s.frames()-1 {
			s.play = 0
			return nil
		}
		s.frame++
		return s.tick()
	case tea.KeyPressMsg:
		switch s.mode {
		case knobs:
			return s.knobKey(msg)
		case picture:
			return s.pictureKey(msg)
		}
		return s.menuKey(msg)
	}
	if s.mode == knobs && s.form != nil {
		if c := s.form.current(); c != nil && c.choices() == nil {
			var cmd tea.Cmd
			c.in, cmd = c.in.Update(msg)
			return cmd
		}
	}
	return nil
}

func (s *Screen) menuKey(msg tea.KeyPressMsg) tea.Cmd {
	n := s.items()
	switch {
	case key.Matches(msg, s.keys.up):
		s.cursor = (s.cursor - 1 + n) % n
	case key.Matches(msg, s.keys.down):
		s.cursor = (s.cursor + 1) % n
	case key.Matches(msg, s.keys.open):
		all := lecture.All()
		if s.cursor < len(all) {
			s.Open(all[s.cursor], nil)
			return nil
		}
		s.showPast(s.past[s.cursor-len(all)])
	}
	return nil
}

// Open shows e's knobs, holding settings (its defaults when nil).
func (s *Screen) Open(e *lecture.Experiment, settings map[string]string) {
	s.exp, s.err = e, nil
	v, err := e.Parse(settings)
	if err != nil {
		v = nil
	}
	s.form = newForm(e, v)
	s.mode = knobs
	s.form.focus()
}

// showPast shows a recorded run of an experiment.
func (s *Screen) showPast(en *runs.Entry) {
	e, err := lecture.Lookup(en.Lab.Experiment)
	if err != nil {
		s.note = "the history holds an experiment this tealab does not have: " + en.Lab.Experiment
		return
	}
	s.exp, s.rec, s.note, s.play = e, en.Lab, "", 0
	s.frame = max(s.frames()-1, 0)
	s.mode = picture
}

func (s *Screen) knobKey(msg tea.KeyPressMsg) tea.Cmd {
	f := s.form
	c := f.current()
	switch {
	case msg.String() == "enter":
		return s.start()
	case msg.String() == "up" || msg.String() == "shift+tab":
		f.move(-1)
		return nil
	case msg.String() == "down" || msg.String() == "tab":
		f.move(1)
		return nil
	case c != nil && c.choices() != nil && (msg.String() == "left" || msg.String() == "right"):
		f.turn(map[string]int{"left": -1, "right": 1}[msg.String()])
		f.focus()
		return nil
	case c != nil && c.choices() == nil && (msg.String() == "ctrl+up" || msg.String() == "ctrl+down"):
		f.turn(map[string]int{"ctrl+down": -1, "ctrl+up": 1}[msg.String()])
		return nil
	}
	if c != nil && c.choices() == nil {
		var cmd tea.Cmd
		c.in, cmd = c.in.Update(msg)
		c.validate()
		s.err = nil
		return cmd
	}
	return nil
}

func (s *Screen) pictureKey(msg tea.KeyPressMsg) tea.Cmd {
	n := s.frames()
	switch {
	case key.Matches(msg, s.keys.cancel) && s.job != nil:
		s.job.cancel()
	case s.job != nil:
	case key.Matches(msg, s.keys.play) && n > 1:
		if s.play != 0 {
			s.play = 0
			return nil
		}
		if s.frame >= n-1 {
			s.frame = 0
		}
		return s.startPlay()
	case key.Matches(msg, s.keys.next) && n > 1:
		s.play, s.frame = 0, min(s.frame+1, n-1)
	case key.Matches(msg, s.keys.prev) && n > 1:
		s.play, s.frame = 0, max(s.frame-1, 0)
	case key.Matches(msg, s.keys.first) && n > 1:
		s.play, s.frame = 0, 0
	case key.Matches(msg, s.keys.last) && n > 1:
		s.play, s.frame = 0, n-1
	case key.Matches(msg, s.keys.edit):
		s.Open(s.exp, s.rec.Settings())
	case key.Matches(msg, s.keys.again):
		s.Open(s.exp, s.rec.Settings())
		return s.start()
	case key.Matches(msg, s.keys.export):
		s.note = s.export()
	}
	return nil
}

func (s *Screen) startPlay() tea.Cmd {
	s.plays++
	s.play = s.plays
	return s.tick()
}

func (s *Screen) tick() tea.Cmd {
	p := s.play
	return tea.Tick(PlayEvery, func(time.Time) tea.Msg { return TickMsg{Play: p} })
}

// start runs the experiment with the form's knobs, in the training slot;
// the data its data knob names are opened by the worker, confined.
func (s *Screen) start() tea.Cmd {
	v, err := s.form.parse()
	if err != nil {
		s.err = err
		return nil
	}
	s.Stop()
	e, c := s.exp, s.c
	spec := ""
	if e.Data != "" {
		spec = v.String(e.Data)
	}
	prepare := func(ctx context.Context) (lecture.In, func(), error) {
		in := lecture.In{Values: v}
		if spec != "" {
			ds, err := s.openData(spec)
			if err != nil {
				return in, nil, err
			}
			in.Data = ds
		}
		release, err := c.HoldSlot(ctx)
		return in, release, err
	}
	s.jobs++
	s.job = startJob(s.ctx, s.jobs, e, v, prepare)
	s.rec = &lecture.Record{Experiment: e.Name, Args: e.Args(v)}
	s.last, s.frame, s.play, s.note, s.err = lecture.Frame{}, 0, 0, "", nil
	s.mode = picture
	return wait(s.job)
}

// openData opens a data knob's value as compare's --data reads one,
// through the session's files.
func (s *Screen) openData(spec string) (*datasets.Dataset, error) {
	d, err := runs.ParseData(spec, func(source string) bool {
		p, err := s.c.DataSource(source)
		if err != nil {
			return false
		}
		_, err = os.Stat(p)
		return err == nil
	})
	if err != nil {
		return nil, err
	}
	return s.c.OpenData(d)
}

// SavedMsg says the history has the run, or why not.
type SavedMsg struct {
	entry *runs.Entry
	err   error
}

// record appends an ended run to the history (a failed one is not kept).
func (s *Screen) record(rec *lecture.Record) tea.Cmd {
	h := s.c.Store()
	if h == nil || rec.Status == lecture.Failed || rec.Result == nil {
		return nil
	}
	e := runs.NewLabEntry(rec)
	line, err := e.Line()
	return s.c.Writing(func() tea.Msg {
		if err == nil {
			err = h.AppendLine(line)
		}
		return SavedMsg{entry: e, err: err}
	})
}

// export writes the run shown as Markdown in the export directory.
func (s *Screen) export() string {
	if s.rec == nil || s.rec.Result == nil {
		return "nothing to export yet"
	}
	var b bytes.Buffer
	if err := report.LectureMarkdown(&b, s.rec, ""); err != nil {
		return "export: " + err.Error()
	}
	return s.c.WriteReports("lab-"+s.rec.Experiment, kit.Report{Ext: "md", Text: b.String()})
}
