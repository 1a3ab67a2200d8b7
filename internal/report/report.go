// Package report renders what ctrlcmp found: JSON (the stable ctrlcmp/v1
// schema of spec/output.md), markdown for journals, and text tables for the
// terminal. Output is sorted and holds no timestamps, so the same input gives
// the same bytes.
package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/olekukonko/tablewriter"

	"github.com/ctrlcmp/ctrlcmp/internal/cite"
	"github.com/ctrlcmp/ctrlcmp/internal/locate"
	"github.com/ctrlcmp/ctrlcmp/internal/result"
)

// Schema is the JSON schema id.
const Schema = "ctrlcmp/v1"

// Document is the JSON output.
type Document struct {
	Schema string        `json:"schema"`
	Trees  []result.Tree `json:"trees"`
}

// JSON writes the document.
func JSON(w io.Writer, trees ...result.Tree) error {
	doc := Document{Schema: Schema, Trees: trees}
	for i := range doc.Trees {
		if doc.Trees[i].Controllers == nil {
			doc.Trees[i].Controllers = []locate.Controller{}
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}

// Markdown writes the comparison table — a row per table row, a column per
// side — and the answers under it.
func Markdown(w io.Writer, sides ...result.Side) error {
	var b bytes.Buffer
	b.WriteString("| Part |")
	for _, s := range sides {
		fmt.Fprintf(&b, " %s (%s) |", sideName(s), mdEscape(s.Tree.Label()))
	}
	b.WriteString("\n|---|")
	for range sides {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	for _, id := range locate.Rows {
		fmt.Fprintf(&b, "| %s |", locate.Question(id))
		for _, s := range sides {
			fmt.Fprintf(&b, " %s |", mdCell(s.Tree, s.Controller.Rows[id]))
		}
		b.WriteString("\n")
	}
	if _, err := w.Write(b.Bytes()); err != nil {
		return err
	}
	return Answers(w, sides...)
}

func mdCell(t result.Tree, r locate.Row) string {
	if len(r.Sites) == 0 || r.None != "" && !hasPrimary(r) {
		return "none: " + mdEscape(r.None)
	}
	var parts []string
	if isConditions(r) {
		for _, s := range r.Sites {
			cell := fmt.Sprintf("**%s** %s", mdEscape(s.Name), mdCite(t, s.File, s.Line, s.Func, s.Text))
			if s.Set != nil {
				cell += " set " + mdCite(t, s.Set.File, s.Set.Line, s.Set.Func, s.Set.Text)
			}
			parts = append(parts, cell)
		}
		return strings.Join(parts, "<br>")
	}
	p, _ := r.Primary()
	cell := mdCite(t, p.File, p.Line, p.Func, p.Text)
	if p.Func != "" {
		cell += " `" + p.Func + "`"
	}
	if p.Class != "" {
		cell += " (" + p.Class + ")"
	}
	if n := len(r.Sites) - 1; n > 0 {
		cell += fmt.Sprintf(" +%d more", n)
	}
	return cell
}

func hasPrimary(r locate.Row) bool {
	_, ok := r.Primary()
	return ok
}

func isConditions(r locate.Row) bool {
	return len(r.Sites) > 0 && r.Sites[0].Name != "" && r.Sites[0].Set != nil
}

// mdCite renders one citation: a link where the tree can link, titled with
// the anchor that check re-verifies (the symbol and the line's hash).
func mdCite(t result.Tree, file string, line int, fn, text string) string {
	label := fmt.Sprintf("%s:%d", path.Base(file), line)
	title := "ctrlcmp " + cite.Anchor(text)
	if fn != "" {
		title = "ctrlcmp " + fn + " " + cite.Anchor(text)
	}
	if t.Link == nil || strings.Contains(file, "@") {
		return fmt.Sprintf("`%s:%d`", file, line)
	}
	return fmt.Sprintf("[%s](%s %q)", mdEscape(label), t.Link(file, line), title)
}

func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ", "<", "&lt;", ">", "&gt;").Replace(s)
}

// Text writes one tree's controllers as terminal tables.
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
	for _, warn := range t.Warnings {
		fmt.Fprintf(w, "warning: %s\n", warn)
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
			row = append(row, textCell(s.Controller.Rows[id]))
		}
		if err := tw.Append(row); err != nil {
			return err
		}
	}
	return tw.Render()
}

func textCell(r locate.Row) string {
	if !hasPrimary(r) {
		return "none: " + r.None
	}
	if isConditions(r) {
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
