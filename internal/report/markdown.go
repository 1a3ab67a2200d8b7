package report

import (
	"bytes"
	"fmt"
	"io"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/ctrlcmp/ctrlcmp/internal/cite"
	"github.com/ctrlcmp/ctrlcmp/internal/locate"
	"github.com/ctrlcmp/ctrlcmp/internal/result"
)

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
	refs := make([]map[string]noneRef, len(sides))
	for i, s := range sides {
		refs[i] = noneRefs(s.Controller)
	}
	for _, id := range locate.Rows {
		fmt.Fprintf(&b, "| %s |", locate.Question(id))
		for i, s := range sides {
			if ref, ok := refs[i][id]; ok {
				fmt.Fprintf(&b, " %s |", ref.cell(locate.Question(ref.id), mdText(s.Tree, ref.extra)))
				continue
			}
			fmt.Fprintf(&b, " %s |", mdCell(s.Tree, id, s.Controller.Rows[id]))
		}
		b.WriteString("\n")
	}
	for _, note := range partialNotes(sides) {
		fmt.Fprintf(&b, "\n_%s_\n", mdPieces(note))
	}
	for _, s := range sides {
		if controllerPartial(s.Controller) {
			fmt.Fprintf(&b, "\n_%s_\n", mdEscape(partialLegend))
			break
		}
	}
	if _, err := w.Write(b.Bytes()); err != nil {
		return err
	}
	return Answers(w, sides...)
}

// maxNamed bounds the functions a partial-analysis note names.
const maxNamed = 5

// plural writes a count of things.
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// mdCell renders a side's answer to row id: every condition type with its
// set site for the conditions row, the primary site for the others, the
// reason for a row without an answer.
func mdCell(t result.Tree, id string, r locate.Row) string {
	if !hasPrimary(r) {
		return mdText(t, noneText(r.None))
	}
	if id == locate.RowConditionTypes {
		var types []string
		for _, c := range conditionTypes(t, r) {
			types = append(types, mdPieces(c))
		}
		return strings.Join(types, "<br>")
	}
	p, _ := r.Primary()
	cell := mdCite(t, p.File, p.Line, p.Func, p.Text)
	if p.Func != "" {
		cell += " `" + p.Func + "`"
	}
	if p.Class != "" {
		cell += " (" + p.Class + ")"
	}
	if p.Partial {
		cell += " " + partialMark
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

// proseCite is a citation inside a reason or a note: a path in the tree
// (no module@version), a colon and a line. Group 1 is the path, group 2
// the line.
var proseCite = regexp.MustCompile(`([\w.+~/-]*\.[A-Za-z0-9]+):(\d+)`)

// mdText renders prose from the analysis (a reason, a note) for markdown:
// escaped, and with each citation in it a link where the tree can link.
// The link has no anchor in its title: the prose does not carry the cited
// line's text.
func mdText(t result.Tree, s string) string {
	if t.Link == nil {
		return mdEscape(s)
	}
	var b strings.Builder
	splitProse(s, func(text string) { b.WriteString(mdEscape(text)) }, func(file string, line int) {
		fmt.Fprintf(&b, "[%s](%s)", mdEscape(fmt.Sprintf("%s:%d", path.Base(file), line)), t.Link(file, line))
	})
	return b.String()
}

// splitProse cuts prose from the analysis into its text, passed to text,
// and the citations in it (path:line, the path in the tree), passed to at.
func splitProse(s string, text func(string), at func(file string, line int)) {
	last := 0
	for _, m := range proseCite.FindAllStringSubmatchIndex(s, -1) {
		if m[0] > 0 && strings.IndexByte("@/:", s[m[0]-1]) >= 0 || m[1] < len(s) && isWordByte(s[m[1]]) {
			continue
		}
		line, err := strconv.Atoi(s[m[4]:m[5]])
		if err != nil {
			continue
		}
		text(s[last:m[0]])
		at(s[m[2]:m[3]], line)
		last = m[1]
	}
	text(s[last:])
}

func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ", "<", "&lt;", ">", "&gt;").Replace(s)
}
