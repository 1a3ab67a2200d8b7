package locate

// The shape of a read: its key argument and object type, and the type its
// result is asserted or converted to.

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// readShape returns the key argument and the object type of a read: from the
// knowledge table, by the shape generated listers and clientsets share, or
// through a read helper of the tree's own (readhelper.go).
func (a *analysis) readShape(info *types.Info, c call) (ast.Expr, types.Type) {
	if key := a.helperReadKey(c); key != nil {
		return key, a.helperReadType(info, c)
	}
	if c.known && c.fact.Role == RoleRead {
		if c.fact.Obj < 0 {
			// A store's GetByKey hands back an interface{}, an indexer's
			// ByIndex a list of them: the object's type is the one its
			// value (an element of the list) is asserted to.
			if t := a.assertedResult(c); t != nil {
				return c.arg(c.fact.Key), t
			}
			return nil, nil
		}
		if o := c.arg(c.fact.Obj); o != nil {
			return c.arg(c.fact.Key), info.TypeOf(o)
		}
		return nil, nil
	}
	if key, t := a.cacheRead(c); key != nil {
		return key, t
	}
	return generatedGet(info, c)
}

// generatedGet returns the key argument and the object type of a Get of
// the shape generated listers and clientsets share.
func generatedGet(info *types.Info, c call) (ast.Expr, types.Type) {
	if c.fn == nil || c.fn.Name() != generatedGetMethod || c.fn.Type().(*types.Signature).Recv() == nil {
		return nil, nil
	}
	// The signature as instantiated at the call (a generic lister's T).
	sig, ok := info.TypeOf(c.expr.Fun).(*types.Signature)
	if !ok || sig.Results().Len() != 2 || !isReadObject(sig.Results().At(0).Type()) {
		return nil, nil
	}
	params := sig.Params()
	switch {
	case params.Len() == 1 && isString(params.At(0).Type()): // lister: Get(name)
		return c.arg(0), sig.Results().At(0).Type()
	case params.Len() == 3 && isString(params.At(1).Type()) && typeKey(params.At(2).Type()) == typeGetOptions: // clientset
		return c.arg(1), sig.Results().At(0).Type()
	}
	return nil, nil
}

// assertedResult follows the first result of a call through SSA to the
// object pointer type it is asserted to: in the calling function, or in an
// own function it is passed to (a conversion helper, the rest of the
// function split off into a helper), two calls deep.
func (a *analysis) assertedResult(c call) types.Type {
	if c.in == nil {
		return nil
	}
	for _, b := range c.in.Blocks {
		for _, in := range b.Instrs {
			if sc, ok := in.(*ssa.Call); ok && sc.Pos() == c.expr.Lparen {
				return a.assertedType(firstResult(sc), 2)
			}
		}
	}
	return nil
}

// closureCalls are the calls, in the function that makes it, of a function
// literal: called by name (no free variables) or through the closure made.
func closureCalls(fn *ssa.Function) []*ssa.Call {
	parent := fn.Parent()
	if parent == nil {
		return nil
	}
	var out []*ssa.Call
	for _, b := range parent.Blocks {
		for _, in := range b.Instrs {
			c, ok := in.(*ssa.Call)
			if !ok {
				continue
			}
			if mc, ok := c.Call.Value.(*ssa.MakeClosure); c.Call.StaticCallee() == fn || ok && mc.Fn == fn {
				out = append(out, c)
			}
		}
	}
	return out
}

// resultAt is the value of a call's result i.
func resultAt(c *ssa.Call, i int) ssa.Value {
	if _, ok := c.Type().(*types.Tuple); !ok {
		if i == 0 {
			return c
		}
		return nil
	}
	for _, r := range *c.Referrers() {
		if e, ok := r.(*ssa.Extract); ok && e.Index == i {
			return e
		}
	}
	return nil
}

// firstResult is the value of a call's first result.
func firstResult(c *ssa.Call) ssa.Value {
	if _, ok := c.Type().(*types.Tuple); !ok {
		return c
	}
	for _, r := range *c.Referrers() {
		if e, ok := r.(*ssa.Extract); ok && e.Index == 0 {
			return e
		}
	}
	return nil
}

// assertedType is the object pointer type a value is asserted to, following
// interface conversions, the elements of a list, the variables it is merged
// into, and calls of own functions depth deep.
func (a *analysis) assertedType(v ssa.Value, depth int) types.Type {
	return a.assertedTypeOnce(v, depth, map[ssa.Value]bool{})
}

// assertedTypeOnce is assertedType, following each value once.
func (a *analysis) assertedTypeOnce(v ssa.Value, depth int, seen map[ssa.Value]bool) types.Type {
	if v == nil || v.Referrers() == nil || seen[v] {
		return nil
	}
	seen[v] = true
	for _, r := range *v.Referrers() {
		switch r := r.(type) {
		case *ssa.TypeAssert:
			if isReadObject(r.AssertedType) {
				return r.AssertedType
			}
		case *ssa.ChangeInterface:
			if t := a.assertedTypeOnce(r, depth, seen); t != nil {
				return t
			}
		case *ssa.Phi:
			// Held in a variable that another branch sets too.
			if t := a.assertedTypeOnce(r, depth, seen); t != nil {
				return t
			}
		case *ssa.IndexAddr:
			// An element of the list read (objs[0], a range over it).
			if r.X != v {
				continue
			}
			for _, load := range *r.Referrers() {
				if u, ok := load.(*ssa.UnOp); ok && u.Op == token.MUL {
					if t := a.assertedTypeOnce(u, depth, seen); t != nil {
						return t
					}
				}
			}
		case *ssa.Return:
			// Returned by a function literal (a read wrapped in a
			// closure called at once or through a variable): what the
			// closure's callers assert its result to. Back out of the
			// literal is no call deeper: the depth stays.
			for i, res := range r.Results {
				if res != v {
					continue
				}
				for _, call := range closureCalls(r.Parent()) {
					if t := a.assertedTypeOnce(resultAt(call, i), depth, seen); t != nil {
						return t
					}
				}
			}
		case *ssa.Call:
			callee := r.Call.StaticCallee()
			if depth == 0 || callee == nil || !a.prog.Own[callee] {
				continue
			}
			for i, arg := range r.Call.Args {
				if arg == v && i < len(callee.Params) {
					if t := a.assertedTypeOnce(callee.Params[i], depth-1, seen); t != nil {
						return t
					}
				}
			}
		}
	}
	return nil
}

// convertedKind is the typed object an unstructured object read by a call
// is converted to, in the function that reads it: the first call after the
// read handed the object (or a value held from it: its asserted type, its
// map) whose first result is an object pointer (a conversion helper of the
// tree's), or that is also handed the address of a typed object to fill (a
// library's converter), and where that call stands; nil when none is.
func (a *analysis) convertedKind(info *types.Info, fn *ssa.Function, read call) (*types.Named, token.Pos) {
	// A read wrapped in function literals hands its value out of them:
	// it is followed from the outermost function, where the literal's
	// call stands.
	top := fn
	for top.Parent() != nil {
		top = top.Parent()
	}
	var expr ast.Expr = read.expr
	if top != fn {
		if expr = a.outOfClosures(info, read.expr, top.Syntax()); expr == nil {
			return nil, token.NoPos
		}
	}
	b, _ := a.readBody(top)
	if b == nil {
		return nil, token.NoPos
	}
	held := map[*types.Var]bool{}
	assignedFrom(info, b, expr, true, held)
	heldFrom(info, b, held)
	if len(held) == 0 {
		return nil, token.NoPos
	}
	var kind *types.Named
	at := token.NoPos
	ast.Inspect(b, func(n ast.Node) bool {
		if kind != nil {
			return false
		}
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		e, ok := n.(*ast.CallExpr)
		if !ok || e.Pos() < expr.End() || !slices.ContainsFunc(e.Args, func(arg ast.Expr) bool { return mentions(info, arg, held) }) {
			return true
		}
		typed := func(t types.Type) *types.Named {
			if !IsObjectPointer(t) || holdsUnstructured(t) {
				return nil
			}
			k, _ := deref(t).(*types.Named)
			return k
		}
		if sig, ok := info.TypeOf(e.Fun).(*types.Signature); ok && sig.Results().Len() > 0 {
			kind = typed(sig.Results().At(0).Type())
		}
		for _, arg := range e.Args {
			if u, ok := ast.Unparen(arg).(*ast.UnaryExpr); ok && u.Op == token.AND && kind == nil && !mentions(info, arg, held) {
				kind = typed(info.TypeOf(arg))
			}
		}
		if kind != nil {
			at = e.Lparen
		}
		return kind == nil
	})
	return kind, at
}
