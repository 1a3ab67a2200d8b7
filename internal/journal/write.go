package journal

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/utils/diff"
	"github.com/sergi/go-diff/diffmatchpatch"
)

// Update puts r into the journal at path (see Splice), creating the file
// (and its directory) when it does not exist. It returns the journal's bytes before and after;
// with dryRun, or when nothing changed, the file is not touched.
func Update(path string, r Region, dryRun bool) (before, after []byte, err error) {
	before, err = os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, nil, fmt.Errorf("journal %s: %w", path, err)
	}
	after, err = Splice(before, r)
	if err != nil {
		return nil, nil, fmt.Errorf("journal %s: %w", path, err)
	}
	if dryRun || bytes.Equal(before, after) {
		return before, after, nil
	}
	if before == nil {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, nil, fmt.Errorf("journal %s: %w", path, err)
		}
	}
	return before, after, WriteAtomic(path, after)
}

// WriteAtomic replaces the file at path with data through a temporary file
// in the same directory and a rename, so a reader sees the old bytes or the
// new ones, never a mix. An existing file keeps its mode; a new one is 0644.
func WriteAtomic(path string, data []byte) error {
	mode := fs.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm()
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".ctrlcmp-*")
	if err != nil {
		return fmt.Errorf("journal %s: cannot write next to it: %w", path, err)
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return fmt.Errorf("journal %s: %w", path, err)
	}
	if err := tmp.Chmod(mode); err != nil {
		return fmt.Errorf("journal %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("journal %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("journal %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("journal %s: %w", path, err)
	}
	done = true
	return nil
}

// UnifiedDiff is a unified diff (3 lines of context) from before to after,
// labelled with name; empty when they are equal.
func UnifiedDiff(name string, before, after []byte) string {
	if bytes.Equal(before, after) {
		return ""
	}
	type op struct {
		kind byte // ' ', '-', '+'
		text string
	}
	var ops []op
	for _, d := range diff.Do(string(before), string(after)) {
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
