package views

import (
	"fmt"
	"math"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/nn"
	"github.com/tealab/tealab/numfmt"
	"github.com/tealab/tealab/tui/kit"
)

func init() {
	Register(Spec{Name: "Network", Order: nn.CapNetwork.Order, Needs: HasLearned(nn.CapNetwork.Name),
		Make: func(env Env, r *kit.RunRecord) View {
			net, _ := eval.LearnedAs[nn.Network](r.Result, nn.CapNetwork.Name)
			return &networkView{c: env.C, net: net}
		}})
}

// networkView draws a fitted network as boxes from its inputs to its
// output, each with its size and activation, and a convolutional
// network's first-layer filters as small images in shades.
type networkView struct {
	c    *kit.Common
	net  nn.Network
	w, h int
}

func (v *networkView) Update(tea.Msg) tea.Cmd { return nil }
func (v *networkView) SetSize(w, h int)       { v.w, v.h = w, h }
func (v *networkView) Keys() []key.Binding    { return nil }

func (v *networkView) View() string {
	parts := []string{v.layers()}
	if f := v.filters(); f != "" {
		parts = append(parts, "", f)
	}
	return kit.Fit(strings.Join(parts, "\n"), v.w, v.h)
}

// layers lays the boxes out left to right, joined by arrows, starting a
// new row where the width runs out.
func (v *networkView) layers() string {
	st := v.c.Styles
	boxes := []string{st.Panel.Render(fmt.Sprintf(" inputs \n %d ", v.net.Inputs))}
	for _, l := range v.net.Layers {
		boxes = append(boxes, st.Panel.Render(layerBox(l)))
	}
	arrow := st.Muted.Render(" → ")
	var rows, row []string
	width := 0
	for i, b := range boxes {
		bw := lipgloss.Width(b)
		if len(row) > 0 && width+lipgloss.Width(arrow)+bw > v.w {
			rows = append(rows, lipgloss.JoinHorizontal(lipgloss.Center, row...))
			row, width = nil, 0
		}
		if len(row) > 0 || i > 0 {
			row = append(row, arrow)
			width += lipgloss.Width(arrow)
		}
		row, width = append(row, b), width+bw
	}
	rows = append(rows, lipgloss.JoinHorizontal(lipgloss.Center, row...))
	return st.Title.Render(" the network, inputs to output") + "\n" + strings.Join(rows, "\n")
}

// layerBox is what one layer's box says: its kind, its size and
// activation, and the shape a convolution or pooling outputs.
func layerBox(l nn.Layer) string {
	lines := []string{" " + l.Kind + " "}
	size := fmt.Sprintf(" %d ", l.Units)
	if l.Kind == "conv" {
		size = fmt.Sprintf(" %d masks ", l.Units)
	}
	if l.Activation != "" {
		size += l.Activation + " "
	}
	lines = append(lines, size)
	if len(l.Shape) > 0 {
		dims := make([]string, len(l.Shape))
		for i, d := range l.Shape {
			dims[i] = fmt.Sprint(d)
		}
		lines = append(lines, " "+strings.Join(dims, "×")+" ")
	}
	return strings.Join(lines, "\n")
}

// filters draws the first convolution's masks side by side, each value a
// cell two characters wide (a terminal cell is twice as tall as wide),
// shaded from its mask's lowest (░) to its highest (█) value.
func (v *networkView) filters() string {
	fh, fw := filterShape(v.net)
	if len(v.net.Filters) == 0 || fh == 0 {
		return ""
	}
	st := v.c.Styles
	title := st.Title.Render(fmt.Sprintf(" first-layer filters: %d masks of %d×%d, each shaded from its lowest (░) to its highest (█) weight",
		len(v.net.Filters), fh, fw))
	per := max((v.w-1)/(2*fw+2), 1)
	var rows []string
	for at := 0; at < len(v.net.Filters); at += per {
		var imgs []string
		for i := at; i < min(at+per, len(v.net.Filters)); i++ {
			imgs = append(imgs, filterImage(v.net.Filters[i], fh, fw, fmt.Sprint(i+1)))
		}
		rows = append(rows, lipgloss.JoinHorizontal(lipgloss.Top, imgs...))
	}
	return title + "\n" + strings.Join(rows, "\n")
}

// filterShape is the masks' height and width: as the network says, or
// square when a run read back from a file has lost it.
func filterShape(net nn.Network) (h, w int) {
	if net.FilterH > 0 && net.FilterW > 0 {
		return net.FilterH, net.FilterW
	}
	if len(net.Filters) > 0 {
		if s := int(math.Sqrt(float64(len(net.Filters[0])))); s*s == len(net.Filters[0]) {
			return s, s
		}
	}
	return 0, 0
}

// filterImage draws one mask of h x w values, with its number under it,
// a space either side.
func filterImage(f []float64, h, w int, label string) string {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range f {
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	var b strings.Builder
	for r := range h {
		b.WriteString(" ")
		for c := range w {
			t := 0.5
			if hi > lo && r*w+c < len(f) {
				t = (f[r*w+c] - lo) / (hi - lo)
			}
			s := numfmt.Shade(t)
			b.WriteString(s + s)
		}
		b.WriteString(" \n")
	}
	b.WriteString(fmt.Sprintf(" %-*s ", 2*w, kit.Clip(label, 2*w)))
	return b.String()
}
