package locate

import (
	"go/ast"
	"go/token"
	"go/types"
)

// A closure deferred at once (defer func() { … }()) runs when the function
// deferring it returns, after the return has evaluated what it hands back.
// Its assignments reach no read of that function's own statements: a
// return of an unnamed result hands back the value the variable had
// before. Only a named result, which the caller reads after the deferred
// functions ran, carries them out.

// deferredLit is a closure deferred at once, and the function (the
// declaration or a function literal) that defers it.
type deferredLit struct {
	lit *ast.FuncLit
	in  ast.Node
}

// innermost is the function of the declaration holding pos: the
// innermost of its function literals seen so far that holds it, or the
// declaration.
func (l *flowLocals) innermost(decl *ast.FuncDecl, pos token.Pos) ast.Node {
	var in ast.Node = decl
	for _, f := range l.funcs {
		if f.Pos() <= pos && pos < f.End() && f.Pos() >= in.Pos() {
			in = f
		}
	}
	return in
}

// deferring is the function that defers the closure holding pos, when pos
// is in a closure deferred at once (the innermost such); nil otherwise.
func (l *flowLocals) deferring(pos token.Pos) ast.Node {
	var at *deferredLit
	for i, d := range l.deferred {
		if d.lit.Pos() <= pos && pos < d.lit.End() && (at == nil || d.lit.Pos() >= at.lit.Pos()) {
			at = &l.deferred[i]
		}
	}
	if at == nil {
		return nil
	}
	return at.in
}

// deferredUnseen reports whether an assignment made in a closure that fn
// defers is unseen by a read of v at pos in body b: the read is in fn's
// own statements and v is none of fn's named results (pos NoPos: no
// read, so none is unseen).
func (b *flowBody) deferredUnseen(fn ast.Node, v *types.Var, pos token.Pos) bool {
	if fn == nil || !pos.IsValid() || b.local().innermost(b.decl, pos) != fn {
		return false
	}
	var ft *ast.FuncType
	switch f := fn.(type) {
	case *ast.FuncDecl:
		ft = f.Type
	case *ast.FuncLit:
		ft = f.Type
	}
	if ft == nil || ft.Results == nil {
		return true
	}
	for _, field := range ft.Results.List {
		for _, id := range field.Names {
			if b.info.Defs[id] == v {
				return false
			}
		}
	}
	return true
}

// storesAt are the stores below v that a read of it at pos may see: all
// of them but those a closure deferred past the read makes (pos NoPos:
// all of them).
func (b *flowBody) storesAt(v *types.Var, pos token.Pos) []pathStore {
	var out []pathStore
	for _, st := range b.local().stores[v] {
		if !b.deferredUnseen(st.deferredIn, v, pos) {
			out = append(out, st)
		}
	}
	return out
}
