// Package diff writes unified diffs (three lines of context) between two
// versions of a text: the journal's --check and the stages patch print them.
package diff

import (
	"bytes"
	"fmt"
	"strings"

	gitdiff "github.com/go-git/go-git/v5/utils/diff"
	"github.com/sergi/go-diff/diffmatchpatch"
)

// Unified is a unified diff (3 lines of context) from before to after,
// labelled with name; empty when they are equal.
func Unified(name string, before, after []byte) string {
	if bytes.Equal(before, after) {
		return ""
	}
	type op struct {
		kind byte // ' ', '-', '+'
		text string
	}
	var ops []op
	for _, d := range gitdiff.Do(string(before), string(after)) {
		kind := byte(' ')
		switch d.Type {
		case diffmatchpatch.DiffDelete:
			kind = '-'
		case diffmatchpatch.DiffInsert:
			kind = '+'
		}
		for _, l := range strings.SplitAfter(d.Text, "\n") {
			if l != "" {
				ops = append(ops, op{kind, l})
			}
		}
	}
	const context = 3
	oldAt, newAt := make([]int, len(ops)+1), make([]int, len(ops)+1) // line numbers before each op
	oldAt[0], newAt[0] = 1, 1
	for i, o := range ops {
		oldAt[i+1], newAt[i+1] = oldAt[i], newAt[i]
		if o.kind != '+' {
			oldAt[i+1]++
		}
		if o.kind != '-' {
			newAt[i+1]++
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "--- %s\n+++ %s (regenerated)\n", name, name)
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		last := i // the hunk's last change: changes closer than 2*context join it
		for j := i + 1; j < len(ops) && j-last <= 2*context+1; j++ {
			if ops[j].kind != ' ' {
				last = j
			}
		}
		start, end := max(0, i-context), min(len(ops), last+context+1)
		fmt.Fprintf(&b, "@@ -%s +%s @@\n", hunkRange(oldAt[start], oldAt[end]-oldAt[start]), hunkRange(newAt[start], newAt[end]-newAt[start]))
		for _, o := range ops[start:end] {
			b.WriteByte(o.kind)
			b.WriteString(o.text)
			if !strings.HasSuffix(o.text, "\n") {
				b.WriteString("\n\\ No newline at end of file\n")
			}
		}
		i = end
	}
	return b.String()
}

// hunkRange is a unified diff's "start,count"; an empty range starts at the
// line before it.
func hunkRange(start, count int) string {
	if count == 0 {
		start--
	}
	return fmt.Sprintf("%d,%d", start, count)
}
