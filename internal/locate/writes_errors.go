package locate

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// What error a return hands back, read from SSA: the nil constant, a
// wrapper's error that is nil when what it wraps is (errors.Wrap: the
// knowledge table), an error a test above the return found set or nil.

// nilErrorReturns are the returns handing back a nil error constant, or a
// wrapper's error (errors.Wrap(err, …), nil when err is: the knowledge
// table) of a value that is nil on some path into the return.
func nilErrorReturns(rs []*ssa.Return) []*ssa.Return {
	var out []*ssa.Return
	for _, r := range rs {
		if n := len(r.Results); n > 0 && isErrorType(r.Results[n-1].Type()) {
			v := resultOf(r, n-1)
			if k, ok := v.(*ssa.Const); ok && k.IsNil() {
				out = append(out, r)
			} else if w := wrappedError(v); w != nil && nilOnSomePath(w, map[ssa.Value]bool{}) {
				out = append(out, r)
			}
		}
	}
	return out
}

// wrappedError is the error a call of a nil-preserving wrapper wraps
// (errors_wrapped.go), nil when v is no such call.
func wrappedError(v ssa.Value) ssa.Value {
	return wrappedErrorIn(v, 0)
}

// unwrapped is the error v wraps, through every nil-preserving wrapper
// around it; v itself when it is no wrapper's error.
func unwrapped(v ssa.Value) ssa.Value {
	for w := wrappedError(v); w != nil; w = wrappedError(v) {
		v = w
	}
	return v
}

// nilOnSomePath reports whether v is the nil constant, or a value merged
// from several paths one of which brings nil (the constant, or a value a
// test found nil on that path: err = r.Update(…) in an if of its own,
// after err was found nil), or a wrapper's error of such a value.
func nilOnSomePath(v ssa.Value, seen map[ssa.Value]bool) bool {
	if seen[v] {
		return false
	}
	seen[v] = true
	switch v := v.(type) {
	case *ssa.Const:
		return v.IsNil()
	case *ssa.Phi:
		for i, e := range v.Edges {
			if nilTestAt(v.Block().Preds[i], e) == testedNil || nilOnSomePath(e, seen) {
				return true
			}
		}
		return false
	}
	if w := wrappedError(v); w != nil {
		return nilOnSomePath(w, seen)
	}
	return false
}

// failing reports whether a return hands back an error that cannot be nil:
// a new error (fmt.Errorf, errors.New: the knowledge table), or an error
// value returned where a test of it against nil has found it set (the
// return lies under the branch of `err != nil`), bare or wrapped by a
// wrapper that keeps nil nil (errors.Wrap). Such a return ends a
// pass that failed, never one that succeeded.
func failing(r *ssa.Return) bool {
	n := len(r.Results)
	if n == 0 || !isErrorType(r.Results[n-1].Type()) {
		return false
	}
	v := resultOf(r, n-1)
	if c, ok := v.(*ssa.Call); ok {
		if fn := c.Call.StaticCallee(); fn != nil {
			if obj, ok := fn.Object().(*types.Func); ok && knowledge[funcKey(obj)].Role == RoleNewError {
				return true
			}
		}
	}
	// A wrapper's error (errors.Wrap(err, …)) is set when what it wraps is.
	return nilTestAbove(r, unwrapped(v)) == testedSet
}

// errorAtReturn says what the error the return s of fn hands back is where
// it stands, read from SSA: testedNil where a test above the return found
// it nil, testedSet where it cannot be nil (failing), "" where it may be
// either, or where fn has no SSA return at s (a body not built).
func errorAtReturn(fn *ssa.Function, s *ast.ReturnStmt) string {
	r := ssaReturnAt(fn, s)
	switch {
	case r == nil || len(r.Results) == 0:
		return ""
	case failing(r):
		return testedSet
	}
	return nilTestAbove(r, unwrapped(resultOf(r, len(r.Results)-1)))
}

// ssaReturnAt is fn's SSA return of the return statement s, nil when fn
// has none (a body not built).
func ssaReturnAt(fn *ssa.Function, s *ast.ReturnStmt) *ssa.Return {
	for _, b := range fn.Blocks {
		if r, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && r.Pos() == s.Return {
			return r
		}
	}
	return nil
}

// Outcomes of a test of a value against nil that a return lies under.
const (
	testedSet = "set"
	testedNil = "nil"
)

// nilTestAbove says what the nearest test of v against nil that the
// return lies under found (the return is reached only through the branch
// taken for that outcome): testedSet, testedNil, or "" when no such test
// dominates it.
func nilTestAbove(r *ssa.Return, v ssa.Value) string {
	return nilTestAt(r.Block(), v)
}

// nilTestAt is nilTestAbove for the end of a block. A value merged from
// several paths (err at the end of a body whose every assignment of it is
// followed by if err != nil { return … }) is nil when it is on each edge
// into the merge: a nil constant, or a value the edge's block lies under
// (or leaves by) a test that found it nil.
func nilTestAt(at *ssa.BasicBlock, v ssa.Value) string {
	if t := dominatingNilTest(at, v); t != "" {
		return t
	}
	if phi, ok := v.(*ssa.Phi); ok && phi.Block() == at && nilOnEdges(phi, map[*ssa.Phi]bool{}) {
		return testedNil
	}
	return ""
}

// nilOnEdges reports whether each value a phi merges is nil on the edge it
// comes by.
func nilOnEdges(phi *ssa.Phi, seen map[*ssa.Phi]bool) bool {
	if seen[phi] || len(seen) > 16 {
		return false
	}
	seen[phi] = true
	for i, e := range phi.Edges {
		pred := phi.Block().Preds[i]
		switch x := e.(type) {
		case *ssa.Const:
			if x.IsNil() {
				continue
			}
		case *ssa.Phi:
			if x.Block() == pred && nilOnEdges(x, seen) {
				continue
			}
		}
		if leavesNil(pred, phi.Block(), e) || dominatingNilTest(pred, e) == testedNil {
			continue
		}
		if inner, ok := e.(*ssa.Phi); ok && inner.Block() != pred && inner.Block().Dominates(pred) && nilOnEdges(inner, seen) {
			continue
		}
		return false
	}
	return true
}

// leavesNil reports whether block from ends in a test of v against nil
// whose branch to block to is the one taken when v is nil.
func leavesNil(from, to *ssa.BasicBlock, v ssa.Value) bool {
	ifs, ok := from.Instrs[len(from.Instrs)-1].(*ssa.If)
	if !ok {
		return false
	}
	cmp, ok := ifs.Cond.(*ssa.BinOp)
	if !ok || (cmp.Op != token.NEQ && cmp.Op != token.EQL) || (cmp.X != v && cmp.Y != v) {
		return false
	}
	other := cmp.Y
	if cmp.Y == v {
		other = cmp.X
	}
	if k, ok := other.(*ssa.Const); !ok || !k.IsNil() {
		return false
	}
	unset := from.Succs[1]
	if cmp.Op == token.EQL {
		unset = from.Succs[0]
	}
	return unset == to && from.Succs[0] != from.Succs[1]
}

// dominatingNilTest is what the nearest test of v against nil that
// dominates the end of block at found.
func dominatingNilTest(at *ssa.BasicBlock, v ssa.Value) string {
	for b := at; b != nil; b = b.Idom() {
		d := b.Idom()
		if d == nil {
			break
		}
		ifs, ok := d.Instrs[len(d.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		cmp, ok := ifs.Cond.(*ssa.BinOp)
		if !ok || (cmp.Op != token.NEQ && cmp.Op != token.EQL) {
			continue
		}
		other := cmp.Y
		if cmp.Y == v {
			other = cmp.X
		} else if cmp.X != v {
			continue
		}
		if k, ok := other.(*ssa.Const); !ok || !k.IsNil() {
			continue
		}
		set, unset := d.Succs[0], d.Succs[1]
		if cmp.Op == token.EQL {
			set, unset = unset, set
		}
		switch {
		case set.Dominates(at) && len(set.Preds) == 1:
			return testedSet
		case unset.Dominates(at) && len(unset.Preds) == 1:
			return testedNil
		}
	}
	return ""
}
