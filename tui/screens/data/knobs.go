// A generator's knobs on the data screen: editing, checking and focus.

package data

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/numfmt"
	"github.com/tealab/tealab/tui/kit"
)

// knobField edits one generator knob.
type knobField struct {
	knob  datasets.Knob
	Input kit.TextField
	err   error
}

func (s *Screen) keyKnobs(msg tea.KeyPressMsg) tea.Cmd {
	e := s.SelectedEntry()
	if e == nil {
		s.Focus = FocusList
		return nil
	}
	fs := s.Knobs[e.Name]
	switch {
	case key.Matches(msg, s.keys.generate):
		for i, f := range fs {
			if f.err != nil {
				s.Kfocus = i
				s.focusKnob()
				return nil
			}
		}
		s.blurKnobs()
		s.Focus = FocusList
		return s.Open(s.highlightedSource(), "", datasets.Auto, nil, false)
	case key.Matches(msg, s.keys.NextField):
		s.Kfocus = (s.Kfocus + 1) % len(fs)
		s.focusKnob()
		return nil
	case key.Matches(msg, s.keys.PrevField):
		s.Kfocus = (s.Kfocus - 1 + len(fs)) % len(fs)
		s.focusKnob()
		return nil
	}
	if s.Kfocus >= len(fs) {
		return nil
	}
	f := fs[s.Kfocus]
	var cmd tea.Cmd
	f.Input, cmd = f.Input.Update(msg)
	f.err = checkKnob(f.knob, f.Input.Value())
	return cmd
}

// checkKnob validates a knob value against its range, naming the knob.
func checkKnob(k datasets.Knob, text string) error {
	v, err := strconv.ParseFloat(strings.TrimSpace(text), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Errorf("knob %s: %q is not a number", k.Name, text)
	}
	if k.Int && v != math.Trunc(v) {
		return fmt.Errorf("knob %s: %s is not a whole number", k.Name, text)
	}
	if v < k.Min || v > k.Max {
		return fmt.Errorf("knob %s: %s is out of range [%s, %s]", k.Name, text, numfmt.Bound(k.Min), numfmt.Bound(k.Max))
	}
	return nil
}

func (s *Screen) focusKnob() {
	e := s.SelectedEntry()
	if e == nil {
		return
	}
	for i, f := range s.Knobs[e.Name] {
		if i == s.Kfocus {
			f.Input.Focus()
		} else {
			f.Input.Blur()
		}
	}
}

func (s *Screen) blurKnobs() {
	for _, fs := range s.Knobs {
		for _, f := range fs {
			f.Input.Blur()
		}
	}
}
