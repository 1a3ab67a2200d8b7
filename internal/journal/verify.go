package journal

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/ctrlcmp/ctrlcmp/internal/cite"
)

// sourceFile is a cited file, read once. What citations are compared with
// is derived from its lines once, when first needed, however many cite it:
// the lines with their white space folded, their anchors, and an index from
// each to the lines that have it.
type sourceFile struct {
	lines      []string // without line endings
	err        error
	funcs      []funcSpan          // Go files: function declarations, parsed when first needed
	funcByName map[string]funcSpan // the first declaration of each name
	parsed     bool
	folded     []string         // the lines with their white space folded
	anchors    []string         // cite.Anchor of each line
	byFolded   map[string][]int // a folded line -> the lines (from 1) that fold to it
	byAnchor   map[string][]int // an anchor -> the lines (from 1) that have it
}

// foldedLines returns the file's lines with their white space folded.
func (f *sourceFile) foldedLines() []string {
	if f.folded == nil {
		f.folded = make([]string, len(f.lines))
		f.byFolded = map[string][]int{}
		for i, l := range f.lines {
			f.folded[i] = fold(l)
			f.byFolded[f.folded[i]] = append(f.byFolded[f.folded[i]], i+1)
		}
	}
	return f.folded
}

// anchorLines returns the anchor of each of the file's lines.
func (f *sourceFile) anchorLines() []string {
	if f.anchors == nil {
		f.anchors = make([]string, len(f.lines))
		f.byAnchor = map[string][]int{}
		for i, l := range f.lines {
			f.anchors[i] = cite.Anchor(l)
			f.byAnchor[f.anchors[i]] = append(f.byAnchor[f.anchors[i]], i+1)
		}
	}
	return f.anchors
}

func (c *checker) read(t target) (*sourceFile, error) {
	key := filepath.Join(t.root, t.rel)
	if f, ok := c.files[key]; ok {
		return f, f.err
	}
	f := &sourceFile{}
	c.files[key] = f
	root, ok := c.roots[t.root]
	if !ok {
		root, f.err = os.OpenRoot(t.root)
		if f.err != nil {
			return f, f.err
		}
		c.roots[t.root] = root
	}
	data, err := root.ReadFile(t.rel)
	if err != nil {
		f.err = err
		return f, err
	}
	f.lines = splitLines(string(data))
	return f, nil
}

func splitLines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// missing is the finding for a citation whose file could not be read: a
// symlink out of its root is rejected; a file gone may have been renamed.
func (c *checker) missing(cit Citation, t target, err error) Finding {
	var errno syscall.Errno
	switch {
	case errors.Is(err, fs.ErrNotExist):
		bases := []string{t.base}
		for _, cand := range append([]target{t}, t.others...) {
			if f, ok := c.renamed(cit, cand); ok {
				return f
			}
			if cand.base != t.base {
				bases = append(bases, cand.base)
			}
		}
		return Finding{Status: Broken, Message: fmt.Sprintf("broken: %s does not exist in %s (looked in %s)", cit.Path, t.where, strings.Join(bases, ", "))}
	case errors.As(err, &errno):
		return Finding{Status: Broken, Message: fmt.Sprintf("broken: %s cannot be read: %v", cit.Path, errno)}
	}
	return Finding{Status: Rejected, Message: fmt.Sprintf("rejected: %s leads out of %s (through a symlink); cite the file where it really is", cit.Path, t.root)}
}

// verify compares the cited lines with the citation's anchor.
func (c *checker) verify(cit Citation, t target, src *sourceFile) Finding {
	a, why := c.anchor(cit, t)
	inRange := cit.To <= len(src.lines)
	switch {
	case a.empty() && !inRange:
		return Finding{Status: Broken, Message: fmt.Sprintf("broken: %s is past the end of the file (%d lines)%s", cit.Location(), len(src.lines), inTree(t))}
	case a.empty() && why == "":
		return Finding{}
	case a.empty():
		return Finding{Status: Unverified, Message: "unverified: " + cit.Location() + " exists, but " + why, Shallow: c.git.cutOff(cit)}
	case inRange && a.matches(src, cit.From):
		return c.checkSymbol(cit, t, src, cit.From)
	}
	symFrom, symTo := c.symbolRange(cit, t, src)
	at, ok := a.find(src, cit.From, symFrom, symTo)
	if !ok {
		return Finding{Status: Broken, Message: "broken: " + a.lost(cit, src, len(src.lines))}
	}
	return c.moved(cit, t, t, at, c.symbolAt(t, src, at, cit.Symbol))
}

func inTree(t target) string {
	if t.fixed {
		return " in " + t.where
	}
	return ""
}

// checkSymbol checks that a generated citation's line is still inside the
// symbol its title names.
func (c *checker) checkSymbol(cit Citation, t target, src *sourceFile, line int) Finding {
	sym := c.symbolAt(t, src, line, cit.Symbol)
	if sym == cit.Symbol {
		return Finding{}
	}
	return c.moved(cit, t, t, line, sym)
}

// symbolAt is the symbol to record for line: the enclosing function of a
// Go file when the citation named one, else the citation's own.
func (c *checker) symbolAt(t target, src *sourceFile, line int, was string) string {
	if was == "" || !strings.HasSuffix(t.rel, ".go") {
		return was
	}
	name := enclosingFunc(src, line)
	if name == "" || baseSymbol(name) == baseSymbol(was) {
		return was
	}
	return name
}

func (c *checker) symbolRange(cit Citation, t target, src *sourceFile) (from, to int) {
	if cit.Symbol == "" || !strings.HasSuffix(t.rel, ".go") {
		return 0, 0
	}
	return funcLines(src, baseSymbol(cit.Symbol))
}

// moved is the finding for a citation whose anchor is now at line of the
// file of t (was: the file the citation names).
func (c *checker) moved(cit Citation, was, now target, line int, symbol string) Finding {
	newPath := cit.Path
	if now.rel != was.rel {
		rel, err := filepath.Rel(was.base, filepath.Join(now.root, now.rel))
		if err == nil {
			newPath = filepath.ToSlash(rel)
		}
	}
	to := line + cit.To - cit.From
	msg := fmt.Sprintf("moved: %s → %s", cit.Location(), location(newPath, line, to))
	if newPath == cit.Path && line == cit.From {
		msg = fmt.Sprintf("moved: %s is now in %s", cit.Location(), symbol)
	}
	if symbol != cit.Symbol {
		msg += fmt.Sprintf(" (the citation says %s)", cit.Symbol)
	}
	return Finding{Status: Moved, Message: msg, Fixed: cit.rewrite(newPath, line, to, symbol)}
}

// anchor is what a citation must still match: the hash of its generated
// title, or the lines it cited when it was last written (from git).
type anchor struct {
	hash  string
	lines []string // white space folded
}

func (a anchor) empty() bool { return a.hash == "" && a.lines == nil }

func fold(s string) string { return strings.Join(strings.Fields(s), " ") }

// matches reports whether the anchor is at line at of f.
func (a anchor) matches(f *sourceFile, at int) bool {
	if a.hash != "" {
		return at >= 1 && at <= len(f.lines) && f.anchorLines()[at-1] == a.hash
	}
	folded := f.foldedLines()
	if at < 1 || at-1+len(a.lines) > len(folded) {
		return false
	}
	for i, want := range a.lines {
		if folded[at-1+i] != want {
			return false
		}
	}
	return true
}

// find looks for the anchor elsewhere in f: within the symbol's lines
// [symFrom, symTo] when there are matches there, else anywhere; the match
// nearest to near wins. Only the lines the index gives for the anchor's
// (first) line are compared.
func (a anchor) find(f *sourceFile, near, symFrom, symTo int) (int, bool) {
	var candidates []int
	if a.hash != "" {
		f.anchorLines()
		candidates = f.byAnchor[a.hash]
	} else {
		f.foldedLines()
		candidates = f.byFolded[a.lines[0]]
	}
	best, bestIn := 0, false
	for _, at := range candidates {
		if !a.matches(f, at) {
			continue
		}
		in := symFrom <= at && at <= symTo
		if best == 0 || in && !bestIn || in == bestIn && abs(at-near) < abs(best-near) {
			best, bestIn = at, in
		}
	}
	return best, best > 0
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// lost says that the anchor is nowhere in the file.
func (a anchor) lost(cit Citation, src *sourceFile, n int) string {
	what := "the line it cited"
	if a.lines != nil {
		what = fmt.Sprintf("%q", strings.Join(a.lines, " ⏎ "))
	}
	msg := fmt.Sprintf("%s no longer holds %s, and it is nowhere else in %s (%d lines)", cit.Location(), what, cit.Path, n)
	if cit.Symbol != "" {
		if from, to := funcLines(src, baseSymbol(cit.Symbol)); from > 0 {
			msg += fmt.Sprintf("; %s is at lines %d-%d", baseSymbol(cit.Symbol), from, to)
		} else if strings.HasSuffix(cit.Path, ".go") {
			msg += fmt.Sprintf("; %s is gone from the file", baseSymbol(cit.Symbol))
		}
	}
	return msg
}
