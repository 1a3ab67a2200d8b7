// Package metamorphic checks that ctrlcmp's answers survive refactoring.
//
// It rewrites a fixture module (testdata/src/NAME) with one
// meaning-preserving refactoring at a time, into a temporary copy of the
// module (go.mod and go.sum kept), and locates the controllers of the
// original and of the copy through the same entry points as the locate
// tests (load.Load, callgraph.Build, locate.Locate).
//
// Each refactoring (Rewrites) targets the statement on every want line of
// the fixture: the line a row's site is cited at. The want comment
// travels with the statement (a moved statement keeps its comment; a value
// moved out of a statement leaves its want comment on the statement's
// line), so the expectations of the copy are read from the copy's own want
// comments. A rewrite that cannot apply to a line, or whose result does
// not type-check, leaves that line alone and is reported as n/a for it,
// not as a pass.
//
// Every row of every controller then gets a verdict under each rewrite
// (Judge): the same site as the copy's want comment (mapped through the
// rewrite), or an honest "not settled", pass; another site, a site where
// none is wanted, or a false none, is wrong. A row whose line the rewrite
// did not touch is n/a unless its answer went wrong anyway.
package metamorphic

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"
	"github.com/ctrlcmp/ctrlcmp/internal/cite"
	"github.com/ctrlcmp/ctrlcmp/internal/load"
	"github.com/ctrlcmp/ctrlcmp/internal/locate"
	"github.com/ctrlcmp/ctrlcmp/internal/wants"
)

// Applied is a rewrite applied to a fixture.
type Applied struct {
	Rewrite Rewrite
	// Sources are the changed and new files, by path relative to the
	// module.
	Sources map[string][]byte
	// Covered are the want lines (file:line relative to the module, as in
	// the original) the rewrite changed; NA says, for each other want line
	// of a Go file, why it did not apply there.
	Covered map[string]bool
	NA      map[string]string
}

// Apply applies rw to every want line of the fixture it can rewrite, one
// after the other, keeping a line's rewrite only when the whole result
// still parses and type-checks (with no more type errors than the
// original has).
func (fx *Fixture) Apply(rw Rewrite) *Applied {
	r := &rewriter{fx: fx}
	base := len(fx.typeErrors(nil))
	before := fx.wantKeys(nil)
	total := newChange()
	a := &Applied{Rewrite: rw, Sources: map[string][]byte{}, Covered: map[string]bool{}, NA: map[string]string{}}
	for _, t := range fx.targetList() {
		if a.Covered[t.at] {
			continue
		}
		r.pending = nil
		c, covered, why := rw.apply(r, t)
		if c == nil {
			a.NA[t.at] = why
			continue
		}
		trial := total.clone()
		if !trial.merge(c) {
			a.NA[t.at] = "overlaps the rewrite of another line"
			continue
		}
		srcs, err := fx.sources(trial)
		if err != nil {
			a.NA[t.at] = err.Error()
			continue
		}
		if !slices.Equal(fx.wantKeys(srcs), before) {
			a.NA[t.at] = "the rewrite would lose or repeat a want comment"
			continue
		}
		if errs := fx.typeErrors(srcs); len(errs) > base {
			a.NA[t.at] = "does not type-check: " + errs[0]
			continue
		}
		total, a.Sources = trial, srcs
		r.keep()
		for _, at := range covered {
			a.Covered[at] = true
			delete(a.NA, at)
		}
	}
	return a
}

// wantKeys lists the want keys of the fixture's Go files with the changed
// sources in place, sorted.
func (fx *Fixture) wantKeys(changed map[string][]byte) []string {
	var keys []string
	add := func(src []byte) {
		for _, l := range strings.Split(string(src), "\n") {
			for _, w := range wants.Line("", l) {
				keys = append(keys, fmt.Sprintf("%s/%s/%t", w.Ctrl, w.Key, w.None))
			}
		}
	}
	for _, f := range fx.files {
		if src, ok := changed[f.rel]; ok {
			add(src)
		} else {
			add(f.src)
		}
	}
	for rel, src := range changed {
		if !fx.hasFile(rel) {
			add(src)
		}
	}
	sort.Strings(keys)
	return keys
}

// Located is a tree and the controllers found in it.
type Located struct {
	Tree  *load.Tree
	Ctrls []locate.Controller
	// Wants are the tree's want comments, relative to Tree.Root; Also
	// the keys of its also comments.
	Wants, Also []wants.Want
	// Unsettled is ctrlcmp's answer when it found no controller and said
	// that its search was not complete ("not settled: …"): every row of
	// the tree is then not settled, an honest gap, not a wrong answer.
	Unsettled string
}

// Locate finds the controllers of a loaded tree as the locate tests do.
func Locate(ctx context.Context, tree *load.Tree) (*Located, error) {
	prog := callgraph.Build(tree.All, tree.Own)
	ctrls, _, err := locate.Locate(ctx, tree, prog, cite.New(tree.Fset, tree.Root, tree.All, tree.Own))
	var unsettled string
	if err != nil {
		if !strings.HasPrefix(err.Error(), "not settled") {
			return nil, err
		}
		unsettled = err.Error()
	}
	ws, err := wants.Scan(tree.Dir, tree.Root)
	if err != nil {
		return nil, err
	}
	also, err := scanAlso(tree.Dir, tree.Root)
	if err != nil {
		return nil, err
	}
	return &Located{Tree: tree, Ctrls: ctrls, Wants: ws, Also: also, Unsettled: unsettled}, nil
}

// scanAlso reads the also comments of the Go files under dir.
func scanAlso(dir, root string) ([]wants.Want, error) {
	var out []wants.Want
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".go" {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		for i, l := range strings.Split(string(data), "\n") {
			if j := strings.Index(l, alsoMark); j >= 0 {
				at := fmt.Sprintf("%s:%d", filepath.ToSlash(rel), i+1)
				out = append(out, wants.Line(at, "// want "+l[j+len(alsoMark):])...)
			}
		}
		return nil
	})
	return out, err
}

// alsoFor maps each key of the also comments about ctrl to their lines.
func alsoFor(also []wants.Want, ctrl string) map[string][]string {
	out := map[string][]string{}
	for _, w := range also {
		if w.Ctrl == "" || w.Ctrl == ctrl {
			out[w.Key] = append(out[w.Key], w.At)
		}
	}
	return out
}

// Verdicts of a cell.
const (
	Same       = "same"
	NotSettled = "not-settled"
	Wrong      = "wrong"
	NA         = "n/a"
)

// Cell is the verdict of one row of one controller under one rewrite.
type Cell struct {
	Fixture, Rewrite, Controller, Row string
	Verdict                           string
	// Detail says what was wanted and what came, for a wrong or n/a cell.
	Detail string
}

// Key names the cell in the known list: "fixture rewrite controller/row".
func (c Cell) Key() string {
	return fmt.Sprintf("%s %s %s/%s", c.Fixture, c.Rewrite, c.Controller, c.Row)
}

// Run applies each rewrite to the fixture at dir, locates the rewritten
// copy (written under tmp as NAME-REWRITE, removed after unless keep) and
// judges every row. The original's own verdicts come first, under the
// rewrite name "original".
func Run(ctx context.Context, name, dir, tmp string, rws []Rewrite, keep bool) ([]Cell, error) {
	fx, err := Open(ctx, dir)
	if err != nil {
		return nil, err
	}
	orig, err := Locate(ctx, fx.Tree)
	if err != nil {
		return nil, err
	}
	cells := judgeAll(name, "original", orig, orig, nil)
	for _, rw := range rws {
		a := fx.Apply(rw)
		if len(a.Covered) == 0 {
			for _, c := range judgeAll(name, rw.Name, orig, orig, a) {
				c.Verdict, c.Detail = NA, "the rewrite applies to no line of the fixture"
				cells = append(cells, c)
			}
			continue
		}
		out := filepath.Join(tmp, name+"-"+rw.Name)
		if err := fx.write(out, a.Sources); err != nil {
			return nil, err
		}
		tree, err := load.Load(ctx, out, nil, nil)
		if err != nil {
			return nil, fmt.Errorf("%s rewritten by %s: %w", name, rw.Name, err)
		}
		got, err := Locate(ctx, tree)
		if err != nil {
			return nil, err
		}
		cells = append(cells, judgeAll(name, rw.Name, orig, got, a)...)
		if !keep {
			if err := os.RemoveAll(out); err != nil {
				return nil, err
			}
		}
	}
	return cells, nil
}

// Answers are the answers beyond the table judged next to the rows.
var Answers = []string{wants.IntervalTrace, wants.Drift, wants.WriteAlways, wants.HotLoop}

// judgeAll judges every row and answer of the original's controllers in
// got, whose expectations are got's want comments; a is the rewrite (nil
// for the original itself).
func judgeAll(fixture, rewrite string, orig, got *Located, a *Applied) []Cell {
	var cells []Cell
	byName := map[string]locate.Controller{}
	for _, c := range got.Ctrls {
		byName[c.Name] = c
	}
	for _, oc := range orig.Ctrls {
		oe, _ := wants.For(orig.Wants, oc.Name)
		ge, err := wants.For(got.Wants, oc.Name)
		also := alsoFor(got.Also, oc.Name)
		for _, id := range append(append([]string(nil), locate.Rows...), Answers...) {
			cell := Cell{Fixture: fixture, Rewrite: rewrite, Controller: oc.Name, Row: id}
			gc, found := byName[oc.Name]
			switch {
			case err != nil:
				cell.Verdict, cell.Detail = Wrong, "the rewrite broke the want comments: "+err.Error()
			case !found && got.Unsettled != "":
				cell.Verdict, cell.Detail = NotSettled, got.Unsettled
			case !found:
				cell.Verdict, cell.Detail = Wrong, "the controller is no longer found"
			case slices.Contains(Answers, id):
				cell.Verdict, cell.Detail = JudgeAnswer(gc, id, ge, also)
			default:
				cell.Verdict, cell.Detail = Judge(gc.Rows[id], id, ge, also)
			}
			if a != nil {
				ats := linesOf(orig, oe, id)
				touched := false
				for _, at := range ats {
					touched = touched || a.Covered[at]
				}
				switch {
				case !touched && cell.Verdict == Wrong:
					cell.Detail += " (the row's own line was not rewritten)"
				case !touched:
					why := "the rewrite did not touch the row's line"
					if len(ats) > 0 && a.NA[ats[0]] != "" {
						why = a.NA[ats[0]]
					}
					cell.Verdict, cell.Detail = NA, why
				}
			}
			cells = append(cells, cell)
		}
	}
	return cells
}

// linesOf are the original want lines of a row or answer, relative to the
// module (as Applied.Covered names lines).
func linesOf(orig *Located, e wants.Expectations, id string) []string {
	var ats []string
	switch id {
	case locate.RowConditionTypes:
		for _, at := range e.CondSet {
			ats = append(ats, at)
		}
	case wants.IntervalTrace, wants.Drift:
		prefix := wants.TracePrefix
		if id == wants.Drift {
			prefix = wants.DriftPrefix
		}
		for k, v := range e.Answers {
			if strings.HasPrefix(k, prefix) {
				ats = append(ats, v...)
			}
		}
	case wants.WriteAlways, wants.HotLoop:
		ats = append(ats, e.Answers[id]...)
	default:
		if at := e.Primary[id]; at != "" {
			ats = append(ats, at)
		}
	}
	prefix, err := filepath.Rel(orig.Tree.Root, orig.Tree.Dir)
	for i, at := range ats {
		if err == nil && prefix != "." {
			ats[i] = strings.TrimPrefix(at, filepath.ToSlash(prefix)+"/")
		}
	}
	sort.Strings(ats)
	return ats
}

// JudgeAnswer gives the verdict of an answer beyond the table: every
// wanted step of the interval trace or the drift answer among the steps
// (or, when the success requeue is not settled, a trace missing some, or
// a drift answer that ends at a write it could not settle: not settled),
// or none where none is wanted; exactly the wanted writes made
// on every pass, or flagged as a hot-loop risk.
func JudgeAnswer(c locate.Controller, id string, e wants.Expectations, also map[string][]string) (string, string) {
	at := func(file string, line int) string { return fmt.Sprintf("%s:%d", file, line) }
	got := map[string]bool{}
	if id == wants.IntervalTrace || id == wants.Drift {
		prefix, steps := wants.TracePrefix, c.IntervalTrace
		if id == wants.Drift {
			prefix, steps = wants.DriftPrefix, c.Drift
		}
		// unread: a function on the path was not analysed; unproven:
		// the drift answer is only such steps, or one write it could
		// not settle.
		unread, unproven := false, id == wants.Drift && len(steps) > 0
		for _, s := range steps {
			got[prefix+s.Step+"@"+at(s.File, s.Line)] = true
			unread = unread || s.Step == locate.StepUnread
			unproven = unproven && (s.Step == locate.StepUnread || s.Step == locate.StepUnsettled)
		}
		if e.None[id] {
			if unproven {
				return NotSettled, ""
			}
			if len(got) > 0 {
				return Wrong, fmt.Sprintf("want none, got %v", sortedKeys(got))
			}
			return Same, ""
		}
		var missing []string
		for k, v := range e.Answers {
			if !strings.HasPrefix(k, prefix) {
				continue
			}
			for _, w := range v {
				ok := false
				for _, a := range append([]string{w}, also[k]...) {
					ok = ok || got[k+"@"+a]
				}
				if !ok {
					missing = append(missing, k+"@"+w)
				}
			}
		}
		sort.Strings(missing)
		switch {
		case len(missing) == 0:
			return Same, ""
		case id == wants.IntervalTrace && strings.HasPrefix(c.Rows[locate.RowRequeueSuccess].None, "not settled"), unread, unproven:
			return NotSettled, ""
		}
		return Wrong, fmt.Sprintf("missing %v, got %v", missing, sortedKeys(got))
	}
	for _, w := range c.Writes {
		if id == wants.WriteAlways && w.Always || id == wants.HotLoop && strings.Contains(w.Note, "hot-loop risk") {
			got[at(w.File, w.Line)] = true
		}
	}
	matched := map[string]bool{}
	var missing []string
	for _, w := range e.Answers[id] {
		ok := false
		for _, a := range append([]string{w}, also[id]...) {
			if got[a] && !matched[a] {
				ok, matched[a] = true, true
				break
			}
		}
		if !ok {
			missing = append(missing, w)
		}
	}
	var extra []string
	for g := range got {
		if !matched[g] {
			extra = append(extra, g)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	if len(missing)+len(extra) == 0 {
		return Same, ""
	}
	return Wrong, fmt.Sprintf("missing %v, not wanted %v", missing, extra)
}

func sortedKeys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Judge gives the verdict of one row against the expectations: the wanted
// site (or a line also holding it, by key) or none, "not settled", or
// wrong; and what was wanted and came when it is not the same.
func Judge(row locate.Row, id string, e wants.Expectations, also map[string][]string) (string, string) {
	p, has := row.Primary()
	unsettled := strings.HasPrefix(row.None, "not settled")
	got := row.None
	if has {
		got, _ = row.Cited()
	}
	switch {
	case e.None[id]:
		if has {
			return Wrong, "want none, got " + got
		}
		if unsettled {
			return NotSettled, ""
		}
		return Same, ""
	case id == locate.RowConditionTypes && len(e.CondDecl)+len(e.CondSet) > 0:
		return judgeConditions(row, e, also)
	case e.Primary[id] == "":
		return NA, "no want for the row"
	case !has && unsettled:
		return NotSettled, ""
	case !has:
		return Wrong, fmt.Sprintf("want %s, got none (%s)", e.Primary[id], row.None)
	case got != e.Primary[id] && !slices.Contains(also[id], got):
		return Wrong, fmt.Sprintf("want %s, got %s (%s)", e.Primary[id], got, strings.TrimSpace(p.Text))
	}
	return Same, ""
}

// judgeConditions judges the condition types: every wanted type set at its
// wanted line, and no other; a type missing while the row says where its
// trail ends is not settled.
func judgeConditions(row locate.Row, e wants.Expectations, also map[string][]string) (string, string) {
	unsettled := strings.HasPrefix(row.None, "not settled")
	got := map[string]locate.Site{}
	for _, s := range row.Sites {
		got[s.Name] = s
		if strings.Contains(s.Note, "not settled") {
			unsettled = true
		}
	}
	verdict := Same
	var details []string
	names := map[string]bool{}
	for n := range e.CondDecl {
		names[n] = true
	}
	for n := range e.CondSet {
		names[n] = true
	}
	var sorted []string
	for n := range names {
		sorted = append(sorted, n)
	}
	sort.Strings(sorted)
	for _, n := range sorted {
		s, ok := got[n]
		switch {
		case !ok && unsettled:
			if verdict == Same {
				verdict = NotSettled
			}
		case !ok:
			verdict = Wrong
			details = append(details, "condition "+n+" missing")
		case s.Set == nil:
			verdict = Wrong
			details = append(details, "condition "+n+" has no set site")
		case fmt.Sprintf("%s:%d", s.Set.File, s.Set.Line) != e.CondSet[n] && !slices.Contains(also[wants.ConditionSet+n], fmt.Sprintf("%s:%d", s.Set.File, s.Set.Line)):
			verdict = Wrong
			details = append(details, fmt.Sprintf("condition %s set at %s:%d, want %s", n, s.Set.File, s.Set.Line, e.CondSet[n]))
		}
	}
	for n := range got {
		if !names[n] {
			verdict = Wrong
			details = append(details, "condition "+n+" is not wanted")
		}
	}
	sort.Strings(details)
	return verdict, strings.Join(details, "; ")
}

// Matrix prints the cells as a table, a row per fixture, controller and
// row, a column per rewrite ("=" same, "~" not settled, "X" wrong, "."
// n/a), and the counts of each verdict per rewrite.
func Matrix(cells []Cell, rws []Rewrite) string {
	cols := []string{"original"}
	for _, rw := range rws {
		cols = append(cols, rw.Name)
	}
	type key struct{ fixture, ctrl, row string }
	var order []key
	byKey := map[key]map[string]Cell{}
	for _, c := range cells {
		k := key{c.Fixture, c.Controller, c.Row}
		if byKey[k] == nil {
			byKey[k] = map[string]Cell{}
			order = append(order, k)
		}
		byKey[k][c.Rewrite] = c
	}
	mark := map[string]string{Same: "=", NotSettled: "~", Wrong: "X", NA: "."}
	var b strings.Builder
	width := 0
	for _, k := range order {
		width = max(width, len(k.fixture+" "+k.ctrl+"/"+k.row))
	}
	fmt.Fprintf(&b, "%-*s", width, "")
	for i := range cols {
		fmt.Fprintf(&b, " %2d", i)
	}
	b.WriteString("\n")
	for _, k := range order {
		fmt.Fprintf(&b, "%-*s", width, k.fixture+" "+k.ctrl+"/"+k.row)
		for _, col := range cols {
			m := " "
			if c, ok := byKey[k][col]; ok {
				m = mark[c.Verdict]
			}
			fmt.Fprintf(&b, " %2s", m)
		}
		b.WriteString("\n")
	}
	b.WriteString("\ncolumns (= same, ~ not settled, X wrong, . n/a):\n")
	for i, col := range cols {
		counts := map[string]int{}
		for _, c := range cells {
			if c.Rewrite == col {
				counts[c.Verdict]++
			}
		}
		fmt.Fprintf(&b, "%2d %-15s same %3d  not-settled %3d  wrong %3d  n/a %3d\n", i, col, counts[Same], counts[NotSettled], counts[Wrong], counts[NA])
	}
	return b.String()
}
