package report

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"path"
	"strings"

	"github.com/ctrlcmp/ctrlcmp/internal/locate"
	"github.com/ctrlcmp/ctrlcmp/internal/result"
	"github.com/ctrlcmp/ctrlcmp/internal/stages"
)

//go:embed html_stages.tmpl
var stagesTmpl string

// stageRadius is the lines either side of a stage's excerpt.
const stageRadius = 4

// The sequence diagram's geometry, in SVG user units: lanes at least
// laneGap apart, a row per arrow.
const (
	seqMargin = 90
	laneGap   = 190
	boxWidth  = 176
	boxHeight = 40
	seqTop    = 20
	rowHeight = 46
)

type stagesPage struct {
	Title   string
	CSS     template.CSS
	Script  template.JS
	Column  htmlColumn
	Diagram seqDiagram
	Steps   []seqStep
	Rows    []stageRow
	Note    string
}

// seqDiagram is the sequence diagram as the template draws it.
type seqDiagram struct {
	Width, Height          int
	BoxY, BoxW, BoxH, Name int // the lanes' boxes, and their names' baseline
	LaneTop, LaneEnd       int
	Lanes                  []seqLane
	Arrows                 []seqArrow
}

type seqLane struct {
	X, BoxX int
	Name    string
}

// seqArrow is one arrow: its number, its row's y, where it starts and ends
// (a self arrow loops to the right), its label and the step it links to.
type seqArrow struct {
	N, Y, X1, X2, LabelX  int
	Self, Event, Leftward bool
	Label, Cite, Target   string
	Head                  string // the arrowhead's points
}

// arrowHead is the triangle at the end of an arrow that ends at (x, y)
// going left or right.
func arrowHead(x, y int, leftward bool) string {
	d := -10
	if leftward {
		d = 10
	}
	return fmt.Sprintf("%d,%d %d,%d %d,%d", x, y, x+d, y-5, x+d, y+5)
}

// seqStep is an arrow's site, listed under the diagram with its excerpt.
type seqStep struct {
	N           int
	ID          string
	Stage, What string
	Ex          htmlExcerpt
}

// stageRow is one stage row with all its sites, as the markdown lists them.
type stageRow struct {
	ID    string
	None  string
	Sites []stageSite
}

type stageSite struct {
	Label, Func, What string
	Href              template.URL
}

// StagesHTML writes one client-go controller's stages as a page: one
// object's life as a sequence diagram drawn in SVG (stages.Life), each
// arrow linked to the excerpt of its site, then every stage's sites.
// read reads the tree's cited files, as for HTML.
func StagesHTML(w io.Writer, read Files, t result.Tree, c locate.Controller) error {
	h := newHighlighter()
	css, err := h.css()
	if err != nil {
		return err
	}
	seq := stages.Life(c)
	p := stagesPage{
		Title:  fmt.Sprintf("ctrlcmp: the stages of %s (%s) in %s", c.Kind, c.Name, t.Label()),
		CSS:    template.CSS(htmlCSS + css),
		Script: template.JS(htmlJS),
		Column: htmlColumn{Controller: headingName(t, c), Kind: c.Kind, Style: c.Style, Label: t.Label(), Sha: t.Sha, Dirty: t.Dirty, Warnings: len(t.Warnings)},
		Note:   seq.Note,
	}
	p.Diagram.BoxY, p.Diagram.BoxW, p.Diagram.BoxH = seqTop, boxWidth, boxHeight
	p.Diagram.Name, p.Diagram.LaneTop = seqTop+boxHeight/2+5, seqTop+boxHeight
	lane := map[string]int{}
	for i, l := range seq.Participants {
		lane[l.ID] = i
		x := seqMargin + i*laneGap
		p.Diagram.Lanes = append(p.Diagram.Lanes, seqLane{X: x, BoxX: x - boxWidth/2, Name: l.Name})
	}
	k := key(result.Side{Tree: t})
	for i, m := range seq.Messages {
		a := seqArrow{N: i + 1, Y: seqTop + boxHeight + 30 + i*rowHeight, X1: p.Diagram.Lanes[lane[m.From]].X, X2: p.Diagram.Lanes[lane[m.To]].X, Event: m.Event, Label: m.What}
		a.Self, a.Leftward = a.X1 == a.X2, a.X2 < a.X1
		a.LabelX = a.X1 + 14
		if a.Leftward {
			a.LabelX = a.X1 - 14
		}
		a.Head = arrowHead(a.X2, a.Y, a.Leftward)
		if a.Self {
			a.Head = arrowHead(a.X2, a.Y+16, true)
		}
		if m.Stage != "" {
			a.Label = m.Stage + " · " + m.What
		}
		if m.Site != nil {
			step := seqStep{N: a.N, ID: fmt.Sprintf("step-%d", a.N), Stage: m.Stage, What: m.What, Ex: h.excerpt(k, t, read, m.Site.Site, stageRadius)}
			a.Cite, a.Target = fmt.Sprintf("%s:%d", path.Base(m.Site.File), m.Site.Line), "#"+step.ID
			p.Steps = append(p.Steps, step)
		}
		p.Diagram.Arrows = append(p.Diagram.Arrows, a)
	}
	p.Diagram.Width = 2*seqMargin + (len(seq.Participants)-1)*laneGap
	p.Diagram.LaneEnd = seqTop + boxHeight + 30 + len(seq.Messages)*rowHeight
	p.Diagram.Height = p.Diagram.LaneEnd + 10
	for _, id := range locate.StageIDs {
		r := c.Stages[id]
		row := stageRow{ID: id}
		if len(r.Sites) == 0 {
			row.None = r.None
		}
		for _, s := range r.Sites {
			what := s.Note
			if s.Name != "" {
				what = strings.TrimSuffix(s.Name+": "+s.Note, ": ")
			}
			row.Sites = append(row.Sites, stageSite{Label: fmt.Sprintf("%s:%d", s.File, s.Line), Func: s.Func, What: what, Href: link(t, s.File, s.Line)})
		}
		p.Rows = append(p.Rows, row)
	}
	tmpl, err := template.New("page").Parse(htmlTmpl)
	if err == nil {
		_, err = tmpl.New("stages").Parse(stagesTmpl)
	}
	if err != nil {
		return err
	}
	return tmpl.ExecuteTemplate(w, "stages", p)
}
