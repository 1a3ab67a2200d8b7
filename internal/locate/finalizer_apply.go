package locate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Finalizers kept by server-side apply: an apply configuration's metadata
// lists the finalizers its field manager owns. Applying a configuration
// that lists a finalizer adds it; applying one whose list is empty drops
// the finalizers the manager applied before. A function stores into that
// list when its body (the tree's, or a dependency's read on demand) assigns
// a parameter's values to the configuration's Finalizers field, the way a
// generated WithFinalizers does. The configuration is the primary object's
// when the call that applies it, in the same function, is handed or
// returns an object of the primary type; a child's configuration is not.

// applyFollowDepth bounds how many helpers deep a finalizer list that is a
// parameter is followed to its callers.
const applyFollowDepth = 3

// applyOps lists the finalizers fn applies to the primary object: adds and
// removals cited where the list is decided (the call of a helper that is
// handed the list, or the store itself), and the lists it could not decide.
func (a *analysis) applyOps(fns []*ssa.Function, fn *ssa.Function, info *types.Info, b *ast.BlockStmt, kind *types.Named) (adds, removes []finOp, unsettled []string) {
	for _, c := range a.callsIn(fn) {
		if c.known || c.fn == nil {
			continue
		}
		i := a.applyFinalizerParam(c.fn)
		if i < 0 || configuresOther(c.fn, kind) || !a.sentWithKind(fn, info, b, c.expr, kind) {
			continue
		}
		if !c.expr.Ellipsis.IsValid() {
			// The finalizers are the arguments from i on.
			if i >= len(c.expr.Args) {
				removes = append(removes, finOp{pos: c.expr.Lparen, info: info, in: fn})
			} else {
				adds = append(adds, finOp{pos: c.expr.Lparen, value: c.expr.Args[i], info: info, in: fn})
			}
			continue
		}
		ad, rm, u := a.appliedList(fns, fn, info, c.arg(i), c.expr.Lparen, 0)
		adds, removes, unsettled = append(adds, ad...), append(removes, rm...), append(unsettled, u...)
	}
	return adds, removes, unsettled
}

// appliedList reads a finalizer list that is applied: nil or empty drops
// the manager's finalizers, a list literal adds its first element, and a
// parameter of fn is followed to the calls of fn in fns.
func (a *analysis) appliedList(fns []*ssa.Function, fn *ssa.Function, info *types.Info, list ast.Expr, at token.Pos, depth int) (adds, removes []finOp, unsettled []string) {
	if isNil(info, list) {
		return nil, []finOp{{pos: at, info: info, in: fn}}, nil
	}
	if lit, ok := ast.Unparen(list).(*ast.CompositeLit); ok {
		if len(lit.Elts) == 0 {
			return nil, []finOp{{pos: at, info: info, in: fn}}, nil
		}
		return []finOp{{pos: at, value: lit.Elts[0], info: info, in: fn}}, nil, nil
	}
	s := a.site(at)
	index := paramOf(info, fn, list)
	if index < 0 || depth >= applyFollowDepth {
		return nil, nil, []string{fmt.Sprintf("the finalizer list applied at %s:%d is computed, not a list ctrlcmp reads", s.File, s.Line)}
	}
	found := false
	for _, caller := range fns {
		for _, c := range a.callsIn(caller) {
			if !slices.Contains(c.own, fn) || c.arg(index) == nil {
				continue
			}
			found = true
			ad, rm, u := a.appliedList(fns, caller, a.infoAt(c.expr.Pos()), c.arg(index), c.expr.Lparen, depth+1)
			adds, removes, unsettled = append(adds, ad...), append(removes, rm...), append(unsettled, u...)
		}
	}
	if !found {
		unsettled = append(unsettled, fmt.Sprintf("the finalizer list applied at %s:%d is a parameter of %s, called from no function the entry reaches", s.File, s.Line, fn.Name()))
	}
	return adds, removes, unsettled
}

// paramOf is the index of the parameter of fn (not its receiver) that e
// names, or -1.
func paramOf(info *types.Info, fn *ssa.Function, e ast.Expr) int {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return -1
	}
	v, ok := info.Uses[id].(*types.Var)
	if !ok {
		return -1
	}
	params := fn.Signature.Params()
	for i := 0; i < params.Len(); i++ {
		if params.At(i) == v {
			return i
		}
	}
	return -1
}

// holdsApplyMeta reports whether fn is a method of an apply configuration:
// its receiver is a struct embedding the metadata's apply configuration.
// Only their bodies are read for a store into the finalizer list.
func holdsApplyMeta(fn *types.Func) bool {
	recv := fn.Type().(*types.Signature).Recv()
	if recv == nil {
		return false
	}
	st, ok := deref(recv.Type()).Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		if f := st.Field(i); f.Embedded() && typeKey(f.Type()) == typeApplyObjectMeta {
			return true
		}
	}
	return false
}

// configuresOther reports whether fn is a method of the apply
// configuration of another kind than the primary's: its receiver's type is
// named for that kind by the generator's convention
// (SecretApplyConfiguration). Wherever it is sent, the finalizers it lists
// are that kind's.
func configuresOther(fn *types.Func, kind *types.Named) bool {
	recv := fn.Type().(*types.Signature).Recv()
	if recv == nil {
		return false
	}
	named, ok := deref(recv.Type()).(*types.Named)
	if !ok {
		return false
	}
	of, ok := strings.CutSuffix(named.Obj().Name(), applyConfigurationSuffix)
	return ok && of != "" && of != kind.Obj().Name()
}

// applyFinalizerParam is the index of the parameter (not the receiver)
// whose values a function stores in an apply configuration's finalizer
// list, or -1.
func (a *analysis) applyFinalizerParam(fn *types.Func) int {
	if !holdsApplyMeta(fn) {
		return -1
	}
	b := a.ownBody(fn.Origin())
	if b == nil {
		b = a.depBody(fn.Origin())
	}
	if b == nil || b.decl == nil || b.decl.Body == nil {
		return -1
	}
	params := b.params
	if b.decl.Recv != nil && len(params) > 0 {
		params = params[1:]
	}
	index := -1
	ast.Inspect(b.decl.Body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if index >= 0 || !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 || fieldOf(b.info, as.Lhs[0]) != fieldApplyFinalizers {
			return index < 0
		}
		for i, p := range params {
			if mentions(b.info, as.Rhs[0], map[*types.Var]bool{p: true}) {
				index = i
			}
		}
		return false
	})
	return index
}
