package locate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"
)

// readPlace orders the reads by the key: order is where the read stands
// in the order a pass runs, the positions of the calls from the entry to
// the function whose code it stands in, then its own (nil for a function
// the walk reached no path to, which is ordered after, by rank, the reach
// order); run is the call, in the code the read is placed in, of a
// creator whose returned closure makes the read.
type readPlace struct {
	order []token.Pos
	rank  int
	run   *callgraph.Edge
}

// before reports whether the read at p runs before the one at q: in the
// first function their calls part in, p's call comes first.
func (p readPlace) before(q readPlace) bool {
	switch {
	case p.order == nil || q.order == nil:
		if (p.order == nil) != (q.order == nil) {
			return q.order == nil
		}
		return p.rank < q.rank
	}
	if c := slices.Compare(p.order, q.order); c != 0 {
		return c < 0
	}
	return p.rank < q.rank
}

// placeOfRead is where a read at pos in fn stands: a read in a helper
// stands where the pass calls it. A closure's read stands
// in its creator's code, where the literal is (a read wrapped in a function
// literal called at once, or assigned and called, keeps its place); a
// closure its creator returns is run by the creator's caller, so its read
// stands at the call of the creator (`r.getThing(ctx, key)()`).
func (a *analysis) placeOfRead(fns []*ssa.Function, reach *callgraph.Reach, fn *ssa.Function, pos token.Pos) readPlace {
	var run *callgraph.Edge
	for fn.Parent() != nil {
		maker := fn.Parent()
		if path := reach.Path(maker); len(path) > 0 && returnsClosure(maker, fn) {
			call := path[len(path)-1]
			fn, pos, run = call.Caller.Func, call.Site.Pos(), call
			continue
		}
		fn = maker
	}
	place := readPlace{rank: slices.Index(fns, fn), run: run}
	if reach.Has(fn) {
		for _, e := range reach.Path(fn) {
			if e.Site == nil {
				return place
			}
			place.order = append(place.order, e.Site.Pos())
		}
		place.order = append(place.order, pos)
	}
	return place
}

// returnsClosure reports whether maker returns the closure c (made with its
// free variables, or converted to a named function type).
func returnsClosure(maker, c *ssa.Function) bool {
	for _, b := range maker.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		for i := range ret.Results {
			if closureValue(resultOf(ret, i)) == c {
				return true
			}
		}
	}
	return false
}

// closureValue is the function a value holds, seen through the closure
// that binds its free variables and through conversions.
func closureValue(v ssa.Value) *ssa.Function {
	for {
		switch x := v.(type) {
		case *ssa.MakeClosure:
			fn, _ := x.Fn.(*ssa.Function)
			return fn
		case *ssa.Function:
			return x
		case *ssa.ChangeType:
			v = x.X
		case *ssa.Convert:
			v = x.X
		default:
			return nil
		}
	}
}

// alternativeReads leaves the re-read not settled when the read chosen and
// another read by the key of the same type, in the same function, are
// made one or the other: in the two branches of an if, in two cases of a
// switch, or the first in an if that leaves the function and the other
// after it (if namespace == "" { return lister.Get(name) }; return
// lister.Namespace(namespace).Get(name), for a kind whose scope the code
// does not fix). Which one reads the object is decided by what the test
// reads. The kind is kept for the other rows.
func (a *analysis) alternativeReads(res reread, byKey []reread) reread {
	if _, ok := res.row.Primary(); !ok || !res.pos.IsValid() || res.fn == nil {
		return res
	}
	for _, other := range byKey {
		if other.fn != res.fn || other.pos == res.pos || (other.kind == nil) != (res.kind == nil) ||
			res.kind != nil && !types.Identical(res.kind, other.kind) {
			continue
		}
		if test := a.eitherOr(res.pos, other.pos); test != nil {
			t := a.site(test.Pos())
			out := res
			out.row = none(fmt.Sprintf("not settled: the request's key is read at %s or at %s, as the test at %s decides: which one reads the object is not in the code",
				fileLine(res.row.Sites[0]), fileLine(other.row.Sites[0]), fileLine(t)))
			return out
		}
	}
	return res
}

// eitherOr is the statement that sends a pass to one of the positions p
// and h of one function or the other, never both: the if whose branches
// hold them, the switch whose cases do, or the if without else holding
// the first in a body that leaves the function, the other after it. Nil
// when a pass may reach both.
func (a *analysis) eitherOr(p, h token.Pos) ast.Node {
	first, second := min(p, h), max(p, h)
	rel, at := a.stmtRelation(first, second)
	switch rel {
	case relBranches, relCases:
		return at
	case relBefore:
		ifs, ok := at.(*ast.IfStmt)
		info := a.infoAt(first)
		if ok && ifs.Else == nil && ifs.Body.Pos() <= first && first < ifs.Body.End() && info != nil && leaves(info, ifs.Body) {
			return ifs
		}
	}
	return nil
}
