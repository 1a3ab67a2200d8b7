package locate

import (
	"fmt"
	"go/ast"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"
)

// nestedCleanup is a deletion branch's cleanup, the function holding the
// branch and how deep the branch is nested there.
type nestedCleanup struct {
	c     *cleanup
	fn    *ssa.Function
	depth int
}

// shallowest is the branch on the main deletion path of those that drop
// the finalizer inline: in the function of the first, the one nested
// least deep (a shortcut under another condition, if unmanaged { if
// deleting { remove; return } }, is not the main path). When two branches
// removing different finalizer calls are as deep, the first is kept with
// both removals, and the removal is not settled.
func shallowest(bs []nestedCleanup) *cleanup {
	var same []nestedCleanup
	for _, b := range bs {
		if b.fn == bs[0].fn {
			same = append(same, b)
		}
	}
	least := slices.MinFunc(same, func(x, y nestedCleanup) int { return x.depth - y.depth })
	best := *least.c
	var ifs []string
	for _, b := range same {
		if b.depth != least.depth || b.c == least.c || sameRemovals(b.c.removes, least.c.removes) {
			continue
		}
		if ifs == nil {
			ifs = append(ifs, fileLine(least.c.sites[0]))
		}
		ifs = append(ifs, fileLine(b.c.sites[0]))
		best.removes = append(slices.Clone(best.removes), b.c.removes...)
	}
	if ifs != nil {
		best.tied = fmt.Sprintf("the branches taken when DeletionTimestamp is set at %s each drop the finalizer inline, nested as deep in %s: which one is the main deletion path is not in the code",
			strings.Join(ifs, " and "), least.c.sites[0].Func)
	}
	return &best
}

// sameRemovals reports whether two lists hold the same removals.
func sameRemovals(x, y []finOp) bool {
	return slices.EqualFunc(x, y, func(a, b finOp) bool { return a.pos == b.pos })
}

// nesting counts the branching statements of b (if, case, loop) that hold
// stmt.
func nesting(b *ast.BlockStmt, stmt ast.Node) int {
	depth := 0
	ast.Inspect(b, func(n ast.Node) bool {
		if n == nil || n == stmt || n.Pos() > stmt.Pos() || stmt.End() > n.End() {
			return false
		}
		switch n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.IfStmt, *ast.CaseClause, *ast.CommClause, *ast.ForStmt, *ast.RangeStmt:
			depth++
		}
		return true
	})
	return depth
}

// amongSteps reports, for a function fn holding a deletion branch that
// drops the finalizer inline, the dynamic call on the path from the entry
// to fn that may run other functions of the tree as well (each step of a
// list a runner calls in turn), and how many it may run: one of the others
// may be the cleanup, run before fn drops the finalizer.
func (a *analysis) amongSteps(reach *callgraph.Reach, fn *ssa.Function) (ssa.CallInstruction, int) {
	for _, e := range reach.Path(fn) {
		if e.Site == nil || e.Site.Common().StaticCallee() != nil {
			continue
		}
		n := 0
		for _, o := range a.prog.CallsFrom(e.Caller.Func) {
			if o.Site == e.Site && reach.Has(o.Callee.Func) {
				n++
			}
		}
		if n > 1 {
			return e.Site, n
		}
	}
	return nil, 0
}
