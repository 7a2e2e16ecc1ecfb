package tui

import (
	"fmt"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/runs"
	"github.com/tealab/tealab/numfmt"
	"github.com/tealab/tealab/report"
	"github.com/tealab/tealab/tui/kit"
	"github.com/tealab/tealab/tui/screens/runlist"
)

// The lab keeps its runs in the run history (runs.History): at start it
// loads the runs of earlier sessions into the runs screen, and it appends
// each run of this session when it ends. File work is done in commands,
// off the UI goroutine; a history that cannot be read or written is a
// note on the runs screen, never a lost run.

// historyLoadedMsg: the history was read at start.
type historyLoadedMsg struct {
	entries []*runs.Entry
	skipped int
	err     error
}

// historySavedMsg: a run of this session was appended as entry id.
type historySavedMsg struct {
	run int
	id  string
	err error
}

// pastDataMsg: the data of a run of an earlier session were opened again,
// to draw its results.
type pastDataMsg struct {
	run     int
	ds      *datasets.Dataset
	changed string // the data differ from the run's (runs.DataChanged)
	err     error
}

// loadHistory reads the history in the background.
func (a *app) loadHistory() tea.Cmd {
	h := a.store
	if h == nil {
		return nil
	}
	return func() tea.Msg {
		es, skipped, err := h.Read()
		return historyLoadedMsg{entries: es, skipped: skipped, err: err}
	}
}

// historyLoaded puts the runs of earlier sessions before this session's,
// numbered from 1 in the order they were made. Runs of a model this build
// does not have are left out (and counted).
func (a *app) historyLoaded(msg historyLoadedMsg) {
	var notes []string
	if msg.err != nil {
		notes = append(notes, a.c.Hide(msg.err.Error()))
	}
	var past []*kit.RunRecord
	var labs []*runs.Entry
	unknown := 0
	for _, e := range msg.entries {
		if e.Lab != nil { // an experiment's: the experiments' screen lists them
			labs = append(labs, e)
			continue
		}
		if e.Run.Spec == nil {
			unknown++
			continue
		}
		past = append(past, &kit.RunRecord{Record: e.Run, HistID: e.ID, Starred: e.Star, Title: e.Name, Past: true})
	}
	if msg.skipped > 0 {
		notes = append(notes, numfmt.Count(msg.skipped, "line")+" of the run history could not be read (a run cut short by a crash?)")
	}
	if unknown > 0 {
		notes = append(notes, numfmt.Count(unknown, "run")+" of models this tealab does not have left out")
	}
	first := 1
	if a.job != nil { // a run began first (its messages carry its number): number after it
		first = a.nextRun
	} else {
		for _, r := range a.history {
			r.ID += len(past)
		}
	}
	for i, r := range past {
		r.ID = first + i
	}
	a.nextRun += len(past)
	a.history = append(past, a.history...)
	a.runs.SetRuns(a.history)
	a.runs.SetNote(strings.Join(notes, "; "))
	a.lect.SetPast(labs)
}

// recordRun appends a finished run to the history. The line is made here,
// on the UI goroutine, so that the record is not read while it is written.
func (a *app) recordRun(r *kit.RunRecord) tea.Cmd {
	h := a.store
	if h == nil || r.Result == nil {
		return nil
	}
	e := runs.NewEntry(r.Record)
	line, err := e.Line()
	id := r.ID
	return a.c.Writing(func() tea.Msg {
		if err == nil {
			err = h.AppendLine(line)
		}
		return historySavedMsg{run: id, id: e.ID, err: err}
	})
}

// historySaved notes the run's place in the history, or why it has none;
// a star or a name given while it was being written is written too.
func (a *app) historySaved(msg historySavedMsg) tea.Cmd {
	if msg.err != nil {
		a.runs.SetNote("not recorded: " + a.c.Hide(msg.err.Error()))
		return nil
	}
	r := a.run(msg.run)
	if r == nil || a.store == nil {
		return nil
	}
	r.HistID = msg.id
	if !r.Starred && r.Title == "" {
		return nil
	}
	h, star, name := a.store, r.Starred, r.Title
	return a.editHistory("", func() error {
		if err := h.Star(msg.id, star); err != nil {
			return err
		}
		return h.Rename(msg.id, name)
	})
}

// openPast opens the data of a run of an earlier session again, so that
// its results can be drawn; data that changed since are not drawn against
// the run's figures.
func openPast(r *kit.RunRecord, c *kit.Common) tea.Cmd {
	id, data := r.ID, r.Data
	return func() tea.Msg {
		d, err := c.OpenData(data)
		if err != nil {
			return pastDataMsg{run: id, err: err}
		}
		return pastDataMsg{run: id, ds: d, changed: runs.DataChanged(data, d)}
	}
}

// showPast shows a run of an earlier session once its data are open.
func (a *app) showPast(msg pastDataMsg) tea.Cmd {
	r := a.run(msg.run)
	switch {
	case r == nil:
		return nil
	case msg.err != nil:
		a.runs.SetNote(fmt.Sprintf("run #%d: %v", r.ID, msg.err))
		return nil
	case msg.changed != "":
		a.runs.SetNote(fmt.Sprintf("run #%d: %s; r runs it again on the data as they are", r.ID, msg.changed))
		return nil
	}
	r.Dataset = msg.ds
	return a.showRun(r)
}

// replay runs a run again as it was set up, through the start-up path:
// its data are opened, its model chosen with its parameters, and it
// trains.
func (a *app) replay(r *kit.RunRecord) tea.Cmd {
	if r.Data.Format != "" || r.Data.RowNames != "" {
		a.runs.SetNote(fmt.Sprintf("run #%d read its file with --format or --row-names, which the lab does not: replay it with tealab run", r.ID))
		return nil
	}
	o := ReplayOptions(r.Record)
	o.Theme = ""
	a.startup = &o
	// Scored on its supplied test set again, as at start (newApp).
	a.params.ScoreOn(o.Test)
	a.replayOf = &r.Data // the new run compares its data's fingerprint with this
	a.startupTask = datasets.Auto
	if o.Task != "" {
		a.startupTask, _ = datasets.ParseTask(o.Task)
	}
	a.goTo(screenData)
	return a.data.Open(o.Data, o.Target, a.startupTask, o.Drop, true)
}

// ReplayOptions are the lab's start-up options that train r again as it
// was set up (`tealab --recipe FILE`, the runs screen's replay key).
func ReplayOptions(r *runs.Record) Options {
	o := r.Options
	return Options{Data: r.Data.Source, Target: r.Data.Target, Task: r.Data.Task, Drop: r.Data.Drop, Model: r.Model,
		Params: engine.Values(r.Params), Train: true, Eval: &o, Test: r.Data.Test}
}

// deleteRun removes a run from the lab and from the history.
func (a *app) deleteRun(id int) tea.Cmd {
	r := a.run(id)
	if r == nil {
		return nil
	}
	for i, x := range a.history {
		if x == r {
			a.history = append(a.history[:i:i], a.history[i+1:]...)
			break
		}
	}
	a.runs.SetRuns(a.history)
	a.runs.SetNote(fmt.Sprintf("run #%d deleted", r.ID))
	if a.store == nil || r.HistID == "" {
		return nil
	}
	h, histID := a.store, r.HistID
	return a.editHistory(fmt.Sprintf("run #%d deleted", r.ID), func() error { return h.Delete(histID) })
}

// editHistory makes an edit of the history in the background and says
// how it went.
func (a *app) editHistory(done string, edit func() error) tea.Cmd {
	return a.c.Writing(func() tea.Msg {
		if err := edit(); err != nil {
			return kit.RunsNoteMsg{Note: "the run history was not changed: " + err.Error()}
		}
		return kit.RunsNoteMsg{Note: done}
	})
}

// setStar stars or unstars the run, in the lab and in the history.
func (a *app) setStar(r *kit.RunRecord, star bool) tea.Cmd {
	r.Starred = star
	a.runs.Rebuild()
	if a.store == nil || r.HistID == "" {
		return nil
	}
	h, id := a.store, r.HistID
	done := fmt.Sprintf("run #%d starred", r.ID)
	if !star {
		done = fmt.Sprintf("run #%d unstarred", r.ID)
	}
	return a.editHistory(done, func() error { return h.Star(id, star) })
}

// runAction does what the runs screen asked of a run.
func (a *app) runAction(msg runlist.ActionMsg) tea.Cmd {
	r := a.run(msg.Run)
	if r == nil {
		return nil
	}
	switch msg.Do {
	case runlist.ActStar:
		return a.setStar(r, !r.Starred)
	case runlist.ActRename:
		return a.rename(r, msg.Name)
	case runlist.ActDelete:
		return a.deleteRun(r.ID)
	case runlist.ActReplay:
		return a.replay(r)
	case runlist.ActMarkdown:
		return a.c.Writing(exportRun(r, "md", a.c.ReportDir()))
	case runlist.ActCSV:
		return a.c.Writing(exportRun(r, "csv", a.c.ReportDir()))
	case runlist.ActRecipe:
		return a.c.Writing(exportRun(r, "recipe", a.c.ReportDir()))
	}
	return nil
}

// rename names the run ("" drops its name), in the lab and the history.
func (a *app) rename(r *kit.RunRecord, name string) tea.Cmd {
	r.Title = name
	a.runs.Rebuild()
	if a.store == nil || r.HistID == "" {
		return nil
	}
	h, id := a.store, r.HistID
	return a.editHistory(fmt.Sprintf("run #%d renamed", r.ID), func() error { return h.Rename(id, name) })
}

// move it).

// exportRun writes the run as a Markdown report, its per-fold scores as
// CSV, or its recipe, to a file in the working directory named after it,
// never over the data it read.
func exportRun(r *kit.RunRecord, kind, dir string) tea.Cmd {
	e := r.Entry()
	name := filepath.Join(dir, "tealab-run-"+e.ID+"."+kind)
	if kind == "recipe" {
		name = filepath.Join(dir, "tealab-recipe-"+e.ID+".json")
	}
	var b strings.Builder
	var err error
	switch kind {
	case "md":
		err = report.RunMarkdown(&b, e)
	case "csv":
		err = report.RunCSV(&b, r.Record)
	default:
		var j []byte
		j, err = runs.RecipeJSON(r.Record)
		b.Write(j)
	}
	inputs := r.Inputs()
	return func() tea.Msg {
		if err == nil {
			err = runs.CheckTarget(name, inputs...)
		}
		if err == nil {
			err = runs.WriteFile(name, []byte(b.String()))
		}
		if err != nil {
			return kit.RunsNoteMsg{Note: fmt.Sprintf("run #%d not written: %v", r.ID, err)}
		}
		where := name
		if abs, err := filepath.Abs(name); err == nil {
			where = abs
		}
		return kit.RunsNoteMsg{Note: fmt.Sprintf("run #%d written to %s", r.ID, where)}
	}
}
