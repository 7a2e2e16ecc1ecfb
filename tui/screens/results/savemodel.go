package results

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/tealab/tealab/engine/modelfile"
	"github.com/tealab/tealab/tui/kit"
)

// ModelSavedMsg says how writing a model file went.
type ModelSavedMsg struct {
	run  int
	path string
	err  error
}

// savePrompt is the results screen's "save model" panel: a file name
// (a default in the current directory), a question before overwriting a
// file, and what became of the last save.
type savePrompt struct {
	Open    bool
	field   kit.TextField
	refusal string // why this run's model cannot be saved; no field then
	confirm string // the existing file a save would replace, awaiting y/n
	problem string // the last attempt's error
	saved   string // the last save, for the score line; cleared by a key
}

// defaultModelFile is "<data>-<model>-run<N>.tealab.json", with what a
// file name should not hold replaced.
func defaultModelFile(r *kit.RunRecord) string {
	name := fmt.Sprintf("%s-%s-run%d.tealab.json", r.Dataset.Name, r.Spec.Name, r.ID)
	return unsafeInName.ReplaceAllString(name, "-")
}

var unsafeInName = regexp.MustCompile(`[^A-Za-z0-9._+-]+`)

// openFor opens the panel for run r: the field, or why r cannot be saved.
func (p *savePrompt) openFor(r *kit.RunRecord) tea.Cmd {
	*p = savePrompt{Open: true, field: kit.NewInput()}
	switch {
	case r.Cancelled() || r.Err != nil || r.Result == nil:
		p.refusal = "only a finished run's model can be saved; this run did not finish"
		return nil
	case r.NoModel() != "":
		p.refusal = r.NoModel()
		return nil
	default:
		if err := modelfile.Savable(r.Spec, r.Result.Fitted, r.Result.Task); err != nil {
			p.refusal = err.Error()
			return nil
		}
	}
	p.field.Prompt = "file: "
	p.field.CharLimit = 4096
	p.field.SetValue(defaultModelFile(r))
	p.field.CursorEnd()
	return p.field.Focus()
}

// typing says whether the panel takes letter keys (the file name, y or
// n, any key closing a refusal): the lab's letter keys wait while it is open.
func (p *savePrompt) typing() bool { return p.Open }

// keys are the panel's own (esc, the lab's back key, closes it).
func (p *savePrompt) keys() []key.Binding {
	switch {
	case p.refusal != "":
		return nil
	case p.confirm != "":
		return []key.Binding{kit.Bind("y", "replace", "y"), kit.Bind("n", "keep it", "n")}
	}
	return []key.Binding{kit.Bind("enter", "save", "enter")}
}

// Update handles a key while the panel is open.
func (p *savePrompt) Update(km tea.KeyPressMsg, r *kit.RunRecord, c *kit.Common) tea.Cmd {
	switch {
	case p.refusal != "":
		p.Open = false
	case p.confirm != "":
		switch km.String() {
		case "y":
			path := p.confirm
			p.confirm = ""
			return c.Writing(saveModelCmd(r, path, c))
		case "n":
			p.confirm = ""
		}
	case km.String() == "enter":
		name := strings.TrimSpace(p.field.Value())
		if name == "" {
			p.problem = "give the file a name"
			return nil
		}
		path, err := c.WritePath(name)
		if err != nil {
			p.problem = err.Error()
			return nil
		}
		if _, err := os.Stat(path); err == nil {
			p.confirm = path
			return nil
		}
		return c.Writing(saveModelCmd(r, path, c))
	default:
		var cmd tea.Cmd
		p.field, cmd = p.field.Update(km)
		return cmd
	}
	return nil
}

// back closes the question, else the panel; false when it was closed.
func (p *savePrompt) back() bool {
	switch {
	case p.confirm != "":
		p.confirm = ""
	case p.Open:
		p.Open = false
	default:
		return false
	}
	return true
}

// saveModelCmd writes r's model to path off the update loop; the message
// names the path as the lab shows it (c.shown).
func saveModelCmd(r *kit.RunRecord, path string, c *kit.Common) tea.Cmd {
	res, d, spec, v, inputs, id := r.Result, r.Dataset, r.Spec, r.Params, r.Inputs(), r.ID
	return func() tea.Msg {
		err := modelfile.WriteFile(path, res, d, spec, v, inputs...)
		if err != nil {
			err = errors.New(c.Hide(err.Error()))
		}
		return ModelSavedMsg{run: id, path: c.Shown(path), err: err}
	}
}

// done takes the outcome of a save of run r.
func (p *savePrompt) done(msg ModelSavedMsg, r *kit.RunRecord) {
	if msg.err != nil {
		p.Open, p.problem = true, msg.err.Error()
		return
	}
	p.Open, p.problem = false, ""
	p.saved = fmt.Sprintf("model saved to %s: fitted on %s", msg.path, r.Result.FittedOn)
}

// View draws the panel w wide.
func (p *savePrompt) View(s *Screen) string {
	st := s.c.Styles
	var b []string
	switch {
	case p.refusal != "":
		b = append(b, st.Warn.Render(kit.Wrap(p.refusal, s.w-6)), "", st.Muted.Render("any key closes"))
	case p.confirm != "":
		b = append(b, st.Warn.Render(kit.Wrap(s.c.Shown(p.confirm)+" exists: replace it? y replaces, n or esc keeps it", s.w-6)))
	default:
		b = append(b, st.Text.Render("Save the shown model, fitted on "+s.Run.Result.FittedOn+", as a model file"),
			st.Muted.Render("(tealab predict --model-file FILE --data SOURCE applies it)"), "", p.field.View(st, max(s.w-14, 10)))
		if p.problem != "" {
			b = append(b, "", st.Error.Render(" "+kit.Wrap(p.problem, s.w-8)))
		}
		b = append(b, "", st.Muted.Render("enter saves · esc closes"))
	}
	return kit.Panel(st, "Save model", strings.Join(b, "\n"), s.w, min(len(b)+2, s.bodyHeight()), true)
}
