package report

import (
	"fmt"
	"io"
	"path"
	"regexp"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/pkg/twwidth"
	"github.com/olekukonko/tablewriter/tw"

	"github.com/ctrlcmp/ctrlcmp/internal/locate"
	"github.com/ctrlcmp/ctrlcmp/internal/result"
)

// headingName names a controller in its heading: its reconciler's type
// name, qualified by its package's directory (DIR/NAME, as --kind takes
// it) when another controller of the tree has the same name.
func headingName(t result.Tree, c locate.Controller) string {
	for _, o := range t.Controllers {
		if o.Name != c.Name {
			continue
		}
		e, ok := c.Rows[locate.RowEntry].Primary()
		oe, _ := o.Rows[locate.RowEntry].Primary()
		if ok && oe.File != e.File {
			return path.Dir(e.File) + "/" + c.Name
		}
	}
	return c.Name
}

// kindOf says a controller's kind in its heading: "kind K", or "no kind".
func kindOf(c locate.Controller) string {
	if c.Kind == "" {
		return "no kind"
	}
	return "kind " + c.Kind
}

// Text writes one tree's controllers as terminal tables that fit in width
// columns: a row per site, the primary one marked with a star, which a
// legend under the tables explains (the tree's warnings are the command
// line's to print, on stderr).
func Text(w io.Writer, t result.Tree, width int) error {
	for i, c := range t.Controllers {
		if i > 0 {
			fmt.Fprintln(w)
		}
		writeWrapped(w, width, fmt.Sprintf("%s, %s (%s), in %s", headingName(t, c), kindOf(c), c.Style, t.Label()))
		var rows [][]gridCell
		refs := noneRefs(c)
		for _, id := range locate.Rows {
			r := c.Rows[id]
			if ref, ok := refs[id]; ok {
				rows = append(rows, cells(id, "none", ref.see(ref.id)))
				continue
			}
			if !hasPrimary(r) {
				rows = append(rows, cells(id, "none", r.None))
				continue
			}
			for _, s := range r.Sites {
				where := fmt.Sprintf("%s:%d", s.File, s.Line)
				if s.Primary {
					where = "* " + where
				}
				if s.Func != "" {
					where += "\n" + s.Func
				}
				text := s.Text
				if s.Name != "" {
					text = s.Name + ": " + text
				}
				if s.Partial {
					text = partialMark + " " + text
				}
				if s.Class != "" {
					text = "[" + s.Class + "] " + text
				}
				rows = append(rows, append(cells(id, where), gridCell{text, sourceLines}))
			}
		}
		if err := textGrid(w, width, cells("row", "site", "source line"), rows); err != nil {
			return err
		}
	}
	if len(t.Controllers) > 0 {
		writeWrapped(w, width, "* marks the primary site, the one a table cites; the other sites of its row support it.")
		if hasPartial(t) {
			writeWrapped(w, width, partialLegend)
		}
	}
	return nil
}

// partialMark marks a site found in a function body that does not
// type-check; partialLegend explains it.
const (
	partialMark   = "(partial)"
	partialLegend = partialMark + " marks a site found in a function body that does not type-check, read from its syntax and the types recorded."
)

// hasPartial reports whether any site of the tree's rows is partial.
func hasPartial(t result.Tree) bool {
	for _, c := range t.Controllers {
		if controllerPartial(c) {
			return true
		}
	}
	return false
}

// controllerPartial reports whether any site of a controller's rows or
// writes is partial.
func controllerPartial(c locate.Controller) bool {
	for _, r := range c.Rows {
		for _, s := range r.Sites {
			if s.Partial {
				return true
			}
		}
	}
	for _, w := range c.Writes {
		if w.Partial {
			return true
		}
	}
	return false
}

// TextTable writes the comparison as a terminal table that fits in width
// columns.
func TextTable(w io.Writer, width int, sides ...result.Side) error {
	header := cells("part")
	refs := make([]map[string]noneRef, len(sides))
	for i, s := range sides {
		header = append(header, gridCell{text: s.Tree.Side + ": " + s.Controller.Name + " (" + s.Tree.Label() + ")"})
		refs[i] = noneRefs(s.Controller)
	}
	var rows [][]gridCell
	for _, id := range locate.Rows {
		row := cells(locate.Question(id))
		for i, s := range sides {
			if ref, ok := refs[i][id]; ok {
				row = append(row, gridCell{text: ref.cell(locate.Question(ref.id), ref.extra)})
				continue
			}
			row = append(row, gridCell{text: textCell(id, s.Controller.Rows[id])})
		}
		rows = append(rows, row)
	}
	if err := textGrid(w, width, header, rows); err != nil {
		return err
	}
	writeWrapped(w, width, `Each cell is the row's primary site; "+N more" counts its other sites, which ctrlcmp explain ROW PATH shows.`)
	return nil
}

// writeWrapped writes text wrapped to width columns.
func writeWrapped(w io.Writer, width int, text string) {
	for _, line := range wrapCell(text, width, 0) {
		fmt.Fprintln(w, line)
	}
}

// textCell is mdCell for the terminal: a condition type per line, or the
// primary site with its symbol on the next line.
func textCell(id string, r locate.Row) string {
	if !hasPrimary(r) {
		return noneText(r.None)
	}
	if id == locate.RowConditionTypes {
		var names []string
		for _, s := range r.Sites {
			n := fmt.Sprintf("%s: %s:%d", s.Name, s.File, s.Line)
			if s.Partial {
				n += " " + partialMark
			}
			names = append(names, n)
		}
		return strings.Join(names, "\n")
	}
	p, _ := r.Primary()
	cell := fmt.Sprintf("%s:%d", p.File, p.Line)
	var more []string
	if p.Func != "" {
		more = append(more, p.Func)
	}
	if p.Class != "" {
		more = append(more, "("+p.Class+")")
	}
	if p.Partial {
		more = append(more, partialMark)
	}
	if n := len(r.Sites) - 1; n > 0 {
		more = append(more, fmt.Sprintf("+%d more", n))
	}
	if len(more) > 0 {
		cell += "\n" + strings.Join(more, " ")
	}
	return cell
}

// sourceLines is the most lines a site's source text wraps to in a
// terminal table (the rest is cut, and marked with an ellipsis); JSON and
// markdown keep it whole.
const sourceLines = 3

// gridCell is a cell of a terminal table: its text, and the most lines it
// wraps to (0 for as many as it takes).
type gridCell struct {
	text  string
	lines int
}

// cells makes a row of cells that wrap to as many lines as they take.
func cells(texts ...string) []gridCell {
	out := make([]gridCell, len(texts))
	for i, t := range texts {
		out[i] = gridCell{text: t}
	}
	return out
}

// minColumn is the narrowest a column is made, however narrow the terminal.
const minColumn = 8

// textGrid writes a table with tablewriter, its header as given (no
// automatic capitals) and its cells wrapped by wrapCell to the widths
// columnWidths gives, so that each line is at most width columns wide
// (unless width leaves less than minColumn for a column).
func textGrid(w io.Writer, width int, header []gridCell, rows [][]gridCell) error {
	natural := make([]int, len(header))
	for _, row := range append([][]gridCell{header}, rows...) {
		for i, c := range row {
			for _, line := range strings.Split(c.text, "\n") {
				natural[i] = max(natural[i], twwidth.Width(strings.Join(strings.Fields(line), " ")))
			}
		}
	}
	// A row is a border, then per column a space, the cell, a space and
	// a border.
	widths := columnWidths(natural, width-1-3*len(header))
	wrapRow := func(row []gridCell) []string {
		out := make([]string, len(row))
		for i, c := range row {
			out[i] = strings.Join(wrapCell(c.text, widths[i], c.lines), "\n")
		}
		return out
	}
	tbl := tablewriter.NewTable(w,
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithHeaderAutoWrap(tw.WrapNone),
		tablewriter.WithHeaderAlignment(tw.AlignLeft),
		tablewriter.WithRowAutoWrap(tw.WrapNone),
	)
	tbl.Header(wrapRow(header))
	for _, row := range rows {
		if err := tbl.Append(wrapRow(row)); err != nil {
			return err
		}
	}
	return tbl.Render()
}

// columnWidths shares budget columns among columns whose content is
// natural wide. Columns that fit keep their width; otherwise the first
// column (the row's label) takes at most a quarter of the budget, and the
// others share the rest evenly, a column needing less than its share giving
// the difference to the others. No column is narrower than minColumn.
func columnWidths(natural []int, budget int) []int {
	widths := make([]int, len(natural))
	copy(widths, natural)
	total := 0
	for _, n := range natural {
		total += n
	}
	if total <= budget || len(natural) == 0 {
		return widths
	}
	widths[0] = min(natural[0], max(budget/4, minColumn))
	rest := budget - widths[0]
	open := make([]int, 0, len(natural)-1)
	for i := 1; i < len(natural); i++ {
		open = append(open, i)
	}
	for len(open) > 0 {
		share := rest / len(open)
		var still []int
		for _, i := range open {
			if natural[i] <= share {
				widths[i] = natural[i]
				rest -= natural[i]
			} else {
				still = append(still, i)
			}
		}
		if len(still) == len(open) {
			for k, i := range open {
				widths[i] = share
				if k < rest%len(open) {
					widths[i]++
				}
			}
			rest = 0
			break
		}
		open = still
	}
	widths[0] = min(natural[0], widths[0]+rest)
	for i := range widths {
		widths[i] = max(widths[i], min(natural[i], minColumn))
	}
	return widths
}

// wrapCell breaks each line of a cell into lines of at most width columns,
// and keeps the first maxLines of them (all when maxLines is 0), marking a
// cut with an ellipsis. Words are kept whole where they fit; a word longer
// than a line (a path, a qualified name) is broken, starting on the current
// line, after a slash, else after other punctuation or before a
// parenthesis, else anywhere. Bytes that are not UTF-8 become U+FFFD, in
// every word alike.
func wrapCell(cell string, width, maxLines int) []string {
	var out []string
	for _, para := range strings.Split(strings.ToValidUTF8(cell, "\uFFFD"), "\n") {
		line := ""
		for _, word := range strings.Fields(para) {
			ww := twwidth.Width(word)
			if line != "" && twwidth.Width(line)+1+ww <= width {
				line += " " + word
				continue
			}
			if first, rest, ok := breakWord(word, width-twwidth.Width(line)-1); ww > width && line != "" && ok {
				out = append(out, line+" "+first)
				line, word = "", rest
			} else if line != "" {
				out = append(out, line)
				line = ""
			}
			for twwidth.Width(word) > width {
				var first string
				first, word, _ = breakWord(word, width)
				out = append(out, first)
			}
			line = word
		}
		out = append(out, line)
	}
	if maxLines > 0 && len(out) > maxLines {
		out = out[:maxLines]
		last := out[maxLines-1]
		if twwidth.Width(last)+1 > width {
			last = twwidth.Truncate(last, width-1)
		}
		out[maxLines-1] = last + "…"
	}
	return out
}

// breakWord cuts the first piece of at most width columns off a word that
// is wider: after its last slash, else after the last other punctuation or
// before the last opening parenthesis that leaves the piece half full and
// does not part a file name from its extension or a line number from its
// file; ok says it found such a place. Otherwise it cuts at width (and at
// one rune at least).
func breakWord(word string, width int) (first, rest string, ok bool) {
	runes := []rune(word)
	fit, w := 0, 0
	for fit < len(runes) && w+twwidth.Width(string(runes[fit])) <= width {
		w += twwidth.Width(string(runes[fit]))
		fit++
	}
	if i := lastIndex(runes[:fit], func(r rune) bool { return r == '/' }); i > 0 {
		return string(runes[:i+1]), string(runes[i+1:]), true
	}
	for i := fit; i > fit/2; i-- {
		if (strings.ContainsRune(".,:;)-_", runes[i-1]) || i < len(runes) && runes[i] == '(') && !fileSuffix.MatchString(string(runes[i:])) {
			return string(runes[:i]), string(runes[i:]), true
		}
	}
	fit = max(fit, 1)
	return string(runes[:fit]), string(runes[fit:]), false
}

// fileSuffix is how the rest of a word starts when a cut before it would
// part "file.go:12": an extension and a line, or a line.
var fileSuffix = regexp.MustCompile(`^([A-Za-z0-9]{1,5}:)?[0-9]`)

// lastIndex is the index of the last rune of rs that is, or -1.
func lastIndex(rs []rune, is func(rune) bool) int {
	for i := len(rs) - 1; i >= 0; i-- {
		if is(rs[i]) {
			return i
		}
	}
	return -1
}
