package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/olekukonko/tablewriter"

	"github.com/ctrlcmp/ctrlcmp/internal/locate"
	"github.com/ctrlcmp/ctrlcmp/internal/result"
)

// Text writes one tree's controllers as terminal tables (its warnings are
// the command line's to print, on stderr).
func Text(w io.Writer, t result.Tree) error {
	for i, c := range t.Controllers {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s  kind %s  (%s)  in %s\n", c.Name, c.Kind, c.Style, t.Label())
		tw := tablewriter.NewWriter(w)
		tw.Header("row", "site", "symbol", "line")
		for _, id := range locate.Rows {
			for _, line := range textLines(c.Rows[id]) {
				if err := tw.Append(append([]string{id}, line...)); err != nil {
					return err
				}
			}
		}
		if err := tw.Render(); err != nil {
			return err
		}
	}
	return nil
}

// TextTable writes the comparison as a terminal table.
func TextTable(w io.Writer, sides ...result.Side) error {
	tw := tablewriter.NewWriter(w)
	header := []string{"part"}
	for _, s := range sides {
		header = append(header, s.Tree.Side+": "+s.Controller.Name+" ("+s.Tree.Label()+")")
	}
	tw.Header(header)
	for _, id := range locate.Rows {
		row := []string{locate.Question(id)}
		for _, s := range sides {
			row = append(row, textCell(id, s.Controller.Rows[id]))
		}
		if err := tw.Append(row); err != nil {
			return err
		}
	}
	return tw.Render()
}

// textCell is mdCell for the terminal: a condition type per line, or the
// primary site.
func textCell(id string, r locate.Row) string {
	if !hasPrimary(r) {
		return "none: " + r.None
	}
	if id == locate.RowConditionTypes {
		var names []string
		for _, s := range r.Sites {
			names = append(names, fmt.Sprintf("%s %s:%d", s.Name, s.File, s.Line))
		}
		return strings.Join(names, "\n")
	}
	p, _ := r.Primary()
	cell := fmt.Sprintf("%s:%d %s", p.File, p.Line, p.Func)
	if n := len(r.Sites) - 1; n > 0 {
		cell += fmt.Sprintf(" (+%d more)", n)
	}
	return cell
}

func textLines(r locate.Row) [][]string {
	if !hasPrimary(r) {
		return [][]string{{"none", "", r.None}}
	}
	var out [][]string
	for _, s := range r.Sites {
		where := fmt.Sprintf("%s:%d", s.File, s.Line)
		if s.Primary {
			where = "* " + where
		}
		text := s.Text
		if s.Name != "" {
			text = s.Name + ": " + text
		}
		if s.Class != "" {
			text = "[" + s.Class + "] " + text
		}
		out = append(out, []string{where, s.Func, clip(text)})
	}
	return out
}

// textWidth bounds the source text shown in a terminal table cell.
const textWidth = 100

// clip shortens a cell's source text for the terminal; JSON and markdown
// keep it whole.
func clip(s string) string {
	if r := []rune(s); len(r) > textWidth {
		return string(r[:textWidth-1]) + "…"
	}
	return s
}
