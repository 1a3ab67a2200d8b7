// Package report renders what ctrlcmp found: JSON (the stable ctrlcmp/v1
// schema of spec/output.md), markdown for journals, and text tables for the
// terminal. Output is sorted and holds no timestamps, so the same input gives
// the same bytes.
package report

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"strings"

	"github.com/olekukonko/tablewriter"

	"github.com/ctrlcmp/ctrlcmp/internal/locate"
)

// Schema is the JSON schema id.
const Schema = "ctrlcmp/v1"

// Document is the JSON output.
type Document struct {
	Schema string `json:"schema"`
	Trees  []Tree `json:"trees"`
}

// Tree is one analysed source tree.
type Tree struct {
	Side        string              `json:"side,omitempty"`
	Root        string              `json:"root"`
	Repo        string              `json:"repo,omitempty"`
	Sha         string              `json:"sha,omitempty"`
	Dirty       bool                `json:"dirty"`
	Controllers []locate.Controller `json:"controllers"`
	Warnings    []string            `json:"warnings,omitempty"`
	// Link turns a tree-relative path and line into a link target; nil
	// gives plain citations.
	Link func(file string, line int) string `json:"-"`
	// Pinned says the tree was fetched at Sha (it cannot change under us).
	Pinned bool `json:"-"`
}

// Label is the tree's name in a table heading: the repository and short
// sha of a pinned tree; the directory of a local one (its sha would change
// with every commit of the journal that cites it).
func (t Tree) Label() string {
	if t.Pinned {
		return strings.TrimSuffix(path.Base(t.Repo), ".git") + "@" + t.Sha[:min(7, len(t.Sha))]
	}
	if abs, err := filepath.Abs(t.Root); err == nil {
		return filepath.Base(abs)
	}
	return filepath.Base(t.Root)
}

// JSON writes the document.
func JSON(w io.Writer, trees ...Tree) error {
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

// Questions are the table's row headings, in the words of the exercise.
var Questions = map[string]string{
	locate.RowEntry:            "the reconcile entry point",
	locate.RowReread:           "where the object is re-read",
	locate.RowFinalizerConst:   "the finalizer constant",
	locate.RowFinalizerAdd:     "where the finalizer is added",
	locate.RowFinalizerCleanup: "the finalizer's cleanup",
	locate.RowFinalizerRemove:  "where the finalizer is removed",
	locate.RowConditionTypes:   "the status condition types",
	locate.RowRequeueError:     "the requeue on error",
	locate.RowRequeueSuccess:   "the requeue on success",
}

// Anchor is what lets a citation be verified again later: the first eight
// hex digits of the SHA-256 of the cited line with its white space folded.
func Anchor(text string) string {
	sum := sha256.Sum256([]byte(strings.Join(strings.Fields(text), " ")))
	return hex.EncodeToString(sum[:4])
}

// Side is one column of a comparison: a tree and the controller chosen in it.
type Side struct {
	Tree       Tree
	Controller locate.Controller
}

// Markdown writes the comparison table — a row per table row, a column per
// side — and the answers under it.
func Markdown(w io.Writer, sides ...Side) error {
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
		fmt.Fprintf(&b, "| %s |", Questions[id])
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

func mdCell(t Tree, r locate.Row) string {
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
func mdCite(t Tree, file string, line int, fn, text string) string {
	label := fmt.Sprintf("%s:%d", path.Base(file), line)
	title := "ctrlcmp " + Anchor(text)
	if fn != "" {
		title = "ctrlcmp " + fn + " " + Anchor(text)
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
func Text(w io.Writer, t Tree) error {
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
func TextTable(w io.Writer, sides ...Side) error {
	tw := tablewriter.NewWriter(w)
	header := []string{"part"}
	for _, s := range sides {
		header = append(header, s.Tree.Side+": "+s.Controller.Name+" ("+s.Tree.Label()+")")
	}
	tw.Header(header)
	for _, id := range locate.Rows {
		row := []string{Questions[id]}
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
