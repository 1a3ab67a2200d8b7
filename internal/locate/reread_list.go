package locate

import (
	"fmt"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// keyUnused reports whether the entry never reads the key it is handed:
// every parameter but the context is unused (Reconcile(ctx, _
// reconcile.Request)). Such an entry cannot read its object by the key.
func keyUnused(entry *ssa.Function) bool {
	params := entry.Params
	if entry.Signature.Recv() != nil && len(params) > 0 {
		params = params[1:]
	}
	keys := 0
	for _, p := range params {
		if typeKey(p.Type()) == typeContext {
			continue
		}
		keys++
		if refs := p.Referrers(); refs != nil && len(*refs) > 0 {
			return false
		}
	}
	return keys > 0
}

// listedKind is the kind whose objects a call lists: the element of the
// Items of the list a client's List reads into, or of the slice a
// generated lister's List(selector) hands back; nil for any other call.
func (a *analysis) listedKind(info *types.Info, c call) *types.Named {
	var items types.Type
	switch {
	case c.known && c.fact.Role == RoleList:
		o := c.arg(c.fact.Obj)
		if o == nil {
			return nil
		}
		st, ok := deref(info.TypeOf(o)).Underlying().(*types.Struct)
		if !ok {
			return nil
		}
		for i := range st.NumFields() {
			if f := st.Field(i); f.Name() == "Items" {
				items = f.Type()
			}
		}
	case c.fn != nil && c.fn.Name() == generatedListMethod:
		sig, ok := info.TypeOf(c.expr.Fun).(*types.Signature)
		if !ok || sig.Params().Len() != 1 || sig.Results().Len() != 2 {
			return nil
		}
		items = sig.Results().At(0).Type()
	}
	sl, ok := types.Unalias(items).(*types.Slice)
	if !ok {
		return nil
	}
	n, _ := deref(sl.Elem()).(*types.Named)
	return n
}

// listRead is, for an entry that never reads its key, the first List of
// the primary kind it reaches: such a pass reads every object of the kind
// afresh, and that List is where it re-reads its own. For an entry that
// reads its key but gets nothing by it, a List of the primary kind that
// the key narrows (client.InNamespace(req.Namespace)) is where it re-reads
// its object, among the others the list holds. Zero when the entry lists
// no object of the kind so.
// With no kind known, the Lists leave the row not settled, naming the
// first one: one of them may be the object's own.
func (a *analysis) listRead(f *found, fns []*ssa.Function, keyVars func(*ssa.Function) map[*types.Var]bool) (reread, bool) {
	unused := keyUnused(f.entry)
	for _, fn := range fns {
		info := a.infoAt(posOf(fn))
		if info == nil {
			continue
		}
		calls, partial := a.readCalls(fn)
		for _, c := range calls {
			k := a.listedKind(info, c)
			if k == nil || f.kind != nil && !types.Identical(k, f.kind) {
				continue
			}
			narrowed := !unused && f.kind != nil && mentions(info, c.expr, keyVars(fn))
			if !unused && !narrowed {
				continue
			}
			if f.kind == nil {
				return reread{row: none(fmt.Sprintf("not settled: %s never reads the request's key and no registration names its kind; it lists every %s at %s, which may be its own objects", a.funcName(f.entry), k.Obj().Name(), fileLine(a.site(c.expr.Lparen))))}, true
			}
			s := a.site(c.expr.Lparen)
			s.Primary, s.Partial = true, partial
			s.Note = fmt.Sprintf("%s never reads the request's key: each pass lists every %s afresh, its own among them", a.funcName(f.entry), f.kind.Obj().Name())
			if narrowed {
				s.Note = fmt.Sprintf("%s gets no %s by the request's key: it lists those the key narrows to (its namespace), its own among them", a.funcName(f.entry), f.kind.Obj().Name())
			}
			return reread{row: Row{Sites: []Site{s}}, kind: f.kind, pos: c.expr.Lparen, fn: fn}, true
		}
	}
	return reread{}, false
}
