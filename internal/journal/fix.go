package journal

import (
	"fmt"
	"os"
	"path"
	"sort"
	"strconv"
)

// rewrite returns the citation's text pointing at newPath lines from-to,
// with symbol in its title: only the parts that changed are replaced, so
// the label and link style the writer chose are kept.
func (c Citation) rewrite(newPath string, from, to int, symbol string) string {
	type edit struct {
		at   span
		text string
	}
	var edits []edit
	if newPath != c.Path && c.path.present() {
		edits = append(edits, edit{c.path, newPath})
	}
	lines := ":" + strconv.Itoa(from)
	if to != from {
		lines += "-" + strconv.Itoa(to)
	}
	if c.lineStyle == "#L" {
		lines = "#L" + strconv.Itoa(from)
		if to != from {
			lines += "-L" + strconv.Itoa(to)
		}
	}
	edits = append(edits, edit{c.lines, lines})
	if c.label.present() {
		label := ":" + strconv.Itoa(from)
		if c.Text[c.label.start] != ':' {
			label = path.Base(newPath) + label
		}
		edits = append(edits, edit{c.label, label})
	}
	if symbol != c.Symbol && c.symbol.present() {
		edits = append(edits, edit{c.symbol, symbol})
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].at.start > edits[j].at.start })
	text := c.Text
	for _, e := range edits {
		text = text[:e.at.start] + e.text + text[e.at.end:]
	}
	return text
}

// Fix rewrites the moved citations of a checked journal in place (only
// their text; every other byte is kept), atomically. It returns how many it
// rewrote; a journal changed since it was checked is left alone.
func Fix(res Result) (int, error) {
	src, err := os.ReadFile(res.File)
	if err != nil {
		return 0, fmt.Errorf("journal %s: %w", res.File, err)
	}
	out := make([]byte, 0, len(src))
	last, n := 0, 0
	for _, f := range res.Findings {
		c := f.Citation
		if f.Status != Moved {
			continue
		}
		if c.End > len(src) || string(src[c.Start:c.End]) != c.Text || c.Start < last {
			return 0, fmt.Errorf("journal %s changed while it was checked; run check --fix again", res.File)
		}
		out = append(append(out, src[last:c.Start]...), f.Fixed...)
		last = c.End
		n++
	}
	if n == 0 {
		return 0, nil
	}
	out = append(out, src[last:]...)
	return n, WriteAtomic(res.File, out)
}
