package report

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"path"
	"strings"

	"github.com/ctrlcmp/ctrlcmp/internal/locate"
	"github.com/ctrlcmp/ctrlcmp/internal/redact"
	"github.com/ctrlcmp/ctrlcmp/internal/result"
)

// The page's style sheet, script and template.
var (
	//go:embed html.css
	htmlCSS string
	//go:embed html.js
	htmlJS string
	//go:embed html.tmpl
	htmlTmpl string
)

// Excerpt sizes: the lines either side of a table row's site, and of a
// link in an answer's chain.
const (
	rowRadius   = 10
	chainRadius = 2
)

// HTML writes the comparison as one self-contained page: the markdown
// table, each row opening on the sides' excerpts side by side, and the
// answers as chains of small excerpts. files[i] reads the cited files of
// sides[i]'s tree (an excerpt that cannot be read says why). The page
// needs no network and holds its style and a few lines of script; the same
// input gives the same bytes.
func HTML(w io.Writer, files []Files, sides ...result.Side) error {
	h := newHighlighter()
	b := &pageBuilder{h: h, files: files}
	page, err := b.page(sides)
	if err != nil {
		return err
	}
	tmpl, err := template.New("page").Parse(htmlTmpl)
	if err != nil {
		return err
	}
	return tmpl.Execute(w, page)
}

// pageBuilder gathers what the template shows.
type pageBuilder struct {
	h     *highlighter
	files []Files
}

type htmlPage struct {
	Title   string
	CSS     template.CSS
	Script  template.JS
	Columns []htmlColumn
	Rows    []htmlRow
	Notes   [][]htmlPiece
	Partial bool // some site is partial: the legend says what that means
	Answers []htmlAnswer
	Lacks   *htmlLacks
}

// htmlColumn heads a side's column.
type htmlColumn struct {
	Side, Controller, Kind, Style, Label, Repo, Sha string
	Dirty                                           bool
	Warnings                                        int
}

// htmlRow is one row of the table.
type htmlRow struct {
	ID, Question string
	Cells        []htmlCell
}

// htmlCell is one side's answer to a row.
type htmlCell struct {
	Column string
	// State is cite, partial, none or unsettled: how the cell looks.
	State string
	// The closed cell: the primary citation, its symbol, class and the
	// count of further sites; or the names of the condition types; or
	// the reason there is none.
	Cite, Func, Class string
	More              int
	Names             []string
	Reason            []htmlPiece
	Searched          string
	Tabs              []htmlTab
}

// htmlTab is one site of a cell, shown in the row when it is open.
type htmlTab struct {
	ID, Label, Class, Note string
	Primary, Partial       bool
	Main                   htmlExcerpt
	Set                    *htmlExcerpt // where a condition type is set
}

// htmlAnswer is one of the answers under the table, for each side.
type htmlAnswer struct {
	ID, Question string
	Sides        []htmlAnswerSide
}

// htmlAnswerSide is one side's answer.
type htmlAnswerSide struct {
	Column string
	None   []htmlPiece
	Steps  []htmlStep
	Retry  []htmlStep  // the interval trace's failure path
	Always []htmlWrite // writes of every pass that succeeds
	Some   []htmlWrite // writes only on some paths
	Writes bool        // this is the writes answer
	NoneAt []htmlPiece // the writes answer when no write dominates
}

// htmlStep is one link of a chain.
type htmlStep struct {
	Step string
	Note []htmlPiece
	Ex   htmlExcerpt
}

// htmlWrite is one write of a pass.
type htmlWrite struct {
	Said    []htmlPiece
	Ex      htmlExcerpt
	Partial bool
}

// htmlLacks is what theirs has that ours lacks.
type htmlLacks struct {
	Items [][]htmlPiece
}

// htmlPiece is a piece of a sentence as the template writes it.
type htmlPiece struct {
	Kind string // text, code, strong or cite
	Text string
	Href template.URL
}

func (b *pageBuilder) page(sides []result.Side) (htmlPage, error) {
	css, err := b.h.css()
	if err != nil {
		return htmlPage{}, err
	}
	p := htmlPage{CSS: template.CSS(htmlCSS + css), Script: template.JS(htmlJS)}
	var names []string
	for _, s := range sides {
		col := htmlColumn{Side: s.Tree.Side, Controller: headingName(s.Tree, s.Controller), Kind: s.Controller.Kind, Style: s.Controller.Style,
			Label: s.Tree.Label(), Dirty: s.Tree.Dirty, Warnings: len(s.Tree.Warnings)}
		if s.Tree.Pinned {
			col.Repo = redact.URLs(s.Tree.Repo)
		}
		col.Sha = s.Tree.Sha
		p.Columns = append(p.Columns, col)
		names = append(names, strings.TrimSpace(col.Side+" "+col.Controller+" ("+col.Label+")"))
		p.Partial = p.Partial || controllerPartial(s.Controller)
	}
	p.Title = "ctrlcmp: " + strings.Join(names, " and ")
	refs := make([]map[string]noneRef, len(sides))
	for i, s := range sides {
		refs[i] = noneRefs(s.Controller)
	}
	for _, id := range locate.Rows {
		row := htmlRow{ID: id, Question: locate.Question(id)}
		for i, s := range sides {
			row.Cells = append(row.Cells, b.cell(i, s, id, refs[i]))
		}
		p.Rows = append(p.Rows, row)
	}
	for _, n := range partialNotes(sides) {
		p.Notes = append(p.Notes, b.pieces(n))
	}
	p.Answers = b.answers(sides)
	if len(sides) == 2 {
		p.Lacks = &htmlLacks{}
		for _, it := range lacksItems(sides[0], sides[1]) {
			p.Lacks.Items = append(p.Lacks.Items, b.pieces(it))
		}
	}
	return p, nil
}

// column names a side in its cells: its side, else its controller.
func column(s result.Side) string {
	if s.Tree.Side != "" {
		return s.Tree.Side
	}
	return headingName(s.Tree, s.Controller)
}

// key names a side's tree for the highlighter's cache.
func key(s result.Side) string { return s.Tree.Side + "\x00" + s.Tree.Root }

// read is the reader of side i's files, nil when none was given.
func (b *pageBuilder) read(i int) Files {
	if i < len(b.files) {
		return b.files[i]
	}
	return nil
}

// cell renders side i's answer to row id.
func (b *pageBuilder) cell(i int, s result.Side, id string, refs map[string]noneRef) htmlCell {
	r := s.Controller.Rows[id]
	c := htmlCell{Column: column(s)}
	if ref, ok := refs[id]; ok {
		c.State = noneState(r.None)
		c.Reason = b.pieces([]piece{textPiece(ref.cell(locate.Question(ref.id), "")), prosePiece(s.Tree, semiPrefix(ref.extra))})
		c.Searched = r.Searched
		return c
	}
	p, ok := r.Primary()
	if !ok {
		c.State = noneState(r.None)
		c.Reason = b.pieces([]piece{prosePiece(s.Tree, noneText(r.None))})
		c.Searched = r.Searched
		return c
	}
	c.State = "cite"
	if p.Partial {
		c.State = "partial"
	}
	if id == locate.RowConditionTypes {
		for _, site := range r.Sites {
			c.Names = append(c.Names, site.Name)
		}
	} else {
		c.Cite, c.Func, c.Class, c.More = fmt.Sprintf("%s:%d", path.Base(p.File), p.Line), p.Func, p.Class, len(r.Sites)-1
	}
	// The primary site comes first, then the others in the row's order.
	sites := append([]locate.Site{p}, r.Sites...)
	for k, site := range sites {
		if k > 0 && site.Primary {
			continue
		}
		tab := htmlTab{ID: fmt.Sprintf("%s-%d-%d", id, i, len(c.Tabs)), Class: site.Class, Note: site.Note, Primary: site.Primary, Partial: site.Partial,
			Main: b.h.excerpt(key(s), s.Tree, b.read(i), site.Site, rowRadius)}
		switch {
		case site.Name != "":
			tab.Label = site.Name
		case site.File == p.File:
			tab.Label = fmt.Sprintf("line %d", site.Line)
		default:
			tab.Label = tab.Main.Label
		}
		if site.Set != nil {
			set := b.h.excerpt(key(s), s.Tree, b.read(i), *site.Set, chainRadius)
			tab.Set = &set
		}
		c.Tabs = append(c.Tabs, tab)
	}
	return c
}

// semiPrefix is the extra reason of a row that refers to an earlier one,
// as it follows the reference.
func semiPrefix(extra string) string {
	if extra == "" {
		return ""
	}
	return "; " + extra
}

// noneState is how a cell without an answer looks: not settled (the search
// was not complete), or none (a claim after a complete search).
func noneState(reason string) string {
	if strings.HasPrefix(reason, "not settled") {
		return "unsettled"
	}
	return "none"
}

// answers renders the three answers of each side.
func (b *pageBuilder) answers(sides []result.Side) []htmlAnswer {
	trace := htmlAnswer{ID: locate.AnswerIntervalTrace, Question: "What the success requeue waits for"}
	writes := htmlAnswer{ID: locate.AnswerWrites, Question: "What one reconcile of an unchanged object writes"}
	drift := htmlAnswer{ID: locate.AnswerDrift, Question: "Where drift is corrected"}
	for i, s := range sides {
		c := s.Controller
		ts := htmlAnswerSide{Column: column(s), Steps: b.steps(i, s, c.IntervalTrace), Retry: b.steps(i, s, c.RetryTrace)}
		if len(c.IntervalTrace) == 0 {
			ts.None = b.pieces([]piece{textPiece("no timed requeue on success. "), prosePiece(s.Tree, c.Rows[locate.RowRequeueSuccess].None)})
		}
		trace.Sides = append(trace.Sides, ts)

		ws := htmlAnswerSide{Column: column(s), Writes: true}
		always, some := splitWrites(c.Writes)
		switch {
		case c.Unsettled != "":
			ws.NoneAt = b.pieces([]piece{textPiece("not settled: "), prosePiece(s.Tree, c.Unsettled)})
		case len(always) == 0:
			ws.NoneAt = b.pieces([]piece{textPiece("no write dominates the normal return, so an unchanged object's pass writes nothing unless a branch finds a difference.")})
		}
		for _, wr := range always {
			ws.Always = append(ws.Always, b.write(i, s, wr))
		}
		for _, wr := range some {
			ws.Some = append(ws.Some, b.write(i, s, wr))
		}
		writes.Sides = append(writes.Sides, ws)

		ds := htmlAnswerSide{Column: column(s), Steps: b.steps(i, s, c.Drift)}
		switch {
		case c.Unsettled != "":
			ds.None = b.pieces([]piece{textPiece("not settled: "), prosePiece(s.Tree, c.Unsettled)})
		case len(c.Drift) == 0:
			ds.None = b.pieces([]piece{textPiece("none found: no apply through a library that detects drift, and no comparison guarding a write of another object.")})
		}
		drift.Sides = append(drift.Sides, ds)
	}
	return []htmlAnswer{trace, writes, drift}
}

func (b *pageBuilder) steps(i int, s result.Side, steps []locate.Step) []htmlStep {
	var out []htmlStep
	for _, st := range steps {
		hs := htmlStep{Step: st.Step, Ex: b.h.excerpt(key(s), s.Tree, b.read(i), st.Site, chainRadius)}
		if st.Note != "" {
			hs.Note = b.pieces([]piece{prosePiece(s.Tree, st.Note)})
		}
		out = append(out, hs)
	}
	return out
}

func (b *pageBuilder) write(i int, s result.Side, w locate.Write) htmlWrite {
	return htmlWrite{Said: b.pieces(writePieces(s.Tree, w)), Ex: b.h.excerpt(key(s), s.Tree, b.read(i), w.Site, 0), Partial: w.Partial}
}

// pieces renders a sentence for the template: prose cut at its citations,
// each citation a link where the tree can link.
func (b *pageBuilder) pieces(ps []piece) []htmlPiece {
	var out []htmlPiece
	add := func(kind, text string, href template.URL) {
		if text == "" {
			return
		}
		if n := len(out); n > 0 && kind == "text" && out[n-1].Kind == "text" {
			out[n-1].Text += text
			return
		}
		out = append(out, htmlPiece{Kind: kind, Text: text, Href: href})
	}
	for _, p := range ps {
		switch p.kind {
		case pieceText:
			add("text", p.text, "")
		case pieceCode:
			add("code", p.text, "")
		case pieceStrong:
			add("strong", p.text, "")
		case pieceProse:
			if p.tree.Link == nil {
				add("text", p.text, "")
				continue
			}
			splitProse(p.text, func(text string) { add("text", text, "") }, func(file string, line int) {
				add("cite", fmt.Sprintf("%s:%d", path.Base(file), line), link(p.tree, file, line))
			})
		case pieceCite:
			label := fmt.Sprintf("%s:%d", path.Base(p.site.File), p.site.Line)
			href := link(p.tree, p.site.File, p.site.Line)
			if href == "" {
				label = fmt.Sprintf("%s:%d", p.site.File, p.site.Line)
			}
			add("cite", label, href)
		}
	}
	return out
}
