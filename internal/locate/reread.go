package locate

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"
)

// keyVars returns the variables of fn that carry the request's key: the
// entry's key parameters (and what is computed from them), or, in a helper,
// every parameter but the context.
func (a *analysis) keyVars(f *found, fn *ssa.Function) map[*types.Var]bool {
	vars := map[*types.Var]bool{}
	if fn == f.entry {
		for v := range f.keyParams {
			vars[v] = true
		}
	} else {
		for _, p := range fn.Params {
			if v, ok := p.Object().(*types.Var); ok && typeKey(v.Type()) != typeContext {
				vars[v] = true
			}
		}
	}
	if b := body(fn); b != nil {
		taint(a.infoAt(b.Pos()), b, vars)
	}
	return vars
}

// reread finds the Get of the primary object by the request's key: a
// client.Reader Get, a lister Get(name) or a clientset Get(ctx, name, opts).
func (a *analysis) reread(f *found, reach *callgraph.Reach) reread {
	for _, fn := range reach.Funcs() {
		info := a.infoAt(posOf(fn))
		if info == nil {
			continue
		}
		vars := a.keyVars(f, fn)
		for _, c := range a.callsIn(fn) {
			key, obj := a.readShape(info, c)
			if key == nil || !mentions(info, key, vars) {
				continue
			}
			n, ok := deref(obj).(*types.Named)
			if !ok || (f.kind != nil && !types.Identical(n, f.kind)) {
				continue
			}
			s := a.site(c.expr.Lparen)
			s.Primary = true
			return reread{row: Row{Sites: []Site{s}}, kind: n, pos: c.expr.Lparen}
		}
	}
	return reread{row: none("no Get of the primary object by the request's key is reachable from the entry")}
}

// readShape returns the key argument and the object type of a read: from the
// knowledge table, or by the shape generated listers and clientsets share.
func (a *analysis) readShape(info *types.Info, c call) (ast.Expr, types.Type) {
	if c.known && c.fact.Role == RoleRead {
		if o := c.arg(c.fact.Obj); o != nil {
			return c.arg(c.fact.Key), info.TypeOf(o)
		}
		return nil, nil
	}
	if c.fn == nil || c.fn.Name() != generatedGetMethod || c.fn.Type().(*types.Signature).Recv() == nil {
		return nil, nil
	}
	// The signature as instantiated at the call (a generic lister's T).
	sig, ok := info.TypeOf(c.expr.Fun).(*types.Signature)
	if !ok || sig.Results().Len() != 2 || !IsObjectPointer(sig.Results().At(0).Type()) {
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
