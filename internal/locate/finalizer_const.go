package locate

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
)

// The finalizer-const row: the constant (or literal, or the place the
// name is computed) of each finalizer the reconcile path adds, removes or
// tests.

// finalizerConstRow cites the constant of every finalizer value whose
// identity is known, added, removed or tested (through the calls of a helper
// that takes it as a parameter): the first primary, one site per constant.
// A constant only tested may be another component's finalizer, one the
// controller waits on: it is not cited alone when what the controller adds
// or removes is a value not followed to a constant.
func finalizerConstRow(p *pass) Row {
	ops := p.finalizers()
	values := func(list []finOp) []finOp {
		var out []finOp
		for _, op := range list {
			if len(op.calls) > 0 {
				out = append(out, op.calls...)
			} else {
				out = append(out, op)
			}
		}
		return out
	}
	changed := values(append(slices.Clone(ops.adds), ops.removes...))
	tested := values(ops.tests)
	var sites []Site
	seen := map[types.Object]bool{}
	var open *finOp
	for i, op := range changed {
		if op.value != nil && !p.finalizerConst(op, seen, &sites) && open == nil {
			open = &changed[i]
		}
	}
	changedSites := len(sites)
	for _, op := range tested {
		if op.value != nil {
			p.finalizerConst(op, seen, &sites)
		}
	}
	if open != nil && changedSites == 0 && len(sites) > 0 {
		s, k := p.a.site(open.pos), sites[0]
		return none(fmt.Sprintf("not settled: the finalizer changed at %s:%d is a value ctrlcmp does not follow to a constant or literal; %s (%s:%d) is only tested, and may be another component's", s.File, s.Line, k.Name, k.File, k.Line))
	}
	if all := append(changed, tested...); len(sites) == 0 && len(all) > 0 {
		// Something adds, removes or tests a finalizer whose value is
		// not followed to a constant: the row is open, not a none.
		s := p.a.site(all[0].pos)
		return none(fmt.Sprintf("not settled: the finalizer changed or tested at %s:%d is a value ctrlcmp does not follow to a constant or literal", s.File, s.Line))
	}
	if len(sites) == 0 {
		return ops.none(ops.noFinalizer)
	}
	switch pick, add, ambiguous := p.removedOnly(); {
	case pick != nil:
		// The one of the finalizers removed that the tree adds off the
		// reconcile path is the controller's.
		at := p.a.objSite(pick)
		i := slices.IndexFunc(sites, func(s Site) bool { return s.File == at.File && s.Line == at.Line })
		if i > 0 {
			s := sites[i]
			sites = append([]Site{s}, slices.Delete(sites, i, i+1)...)
		}
		s := p.a.site(add.pos)
		s.Note = fmt.Sprintf("added off the reconcile path, in %s: the reconcile path only removes it", p.a.funcName(add.in))
		sites = append(sites, s)
	case len(ambiguous) > 0:
		return Row{Sites: sites, None: fmt.Sprintf("not settled: the reconcile path removes the finalizers %s and adds none, and the tree off it does not add just one of them: which one the controller's cleanup waits on is not settled", p.objectNames(ambiguous))}
	}
	return rowOf(sites, "")
}

// finalizerConst adds to sites the constant (or fixed package variable,
// or literal, when no site is known yet) op's value is, once each, and
// reports whether the value was followed to one.
func (p *pass) finalizerConst(op finOp, seen map[types.Object]bool, sites *[]Site) bool {
	addConst := func(k *types.Const) {
		if !seen[k] {
			seen[k] = true
			s := p.a.objSite(k)
			s.Name = constant.StringVal(k.Val())
			*sites = append(*sites, s)
		}
	}
	if k := constOf(op.info, op.value); k != nil {
		addConst(k)
		return true
	}
	// A package-level variable never written after its constant
	// initialiser (var Finalizer = "…") names the finalizer as a
	// constant does.
	if val, v, ok := p.a.fixedString(op.info, op.value); ok {
		if !seen[v] {
			seen[v] = true
			s := p.a.objSite(v)
			s.Name = val
			s.Note = "a package-level variable the tree never writes after its constant initialiser"
			if p.a.fixedVarValues()[v].formatted {
				s.Note = "a package-level variable the tree never writes after its initialiser, which formats constants"
			}
			*sites = append(*sites, s)
		}
		return true
	}
	value := op.value
	if init, ok := localInit(op.in, op.info, value); ok {
		// A local written once, with a constant or a literal
		// (finalizerName := "…"), holds that value.
		if k := constOf(op.info, init); k != nil {
			addConst(k)
			return true
		}
		value = init
	}
	if lit, ok := ast.Unparen(value).(*ast.BasicLit); ok && lit.Kind == token.STRING {
		if len(*sites) == 0 {
			s := p.a.site(lit.Pos())
			s.Note = "a string literal: no constant declares this finalizer"
			*sites = append(*sites, s)
		}
		return true
	}
	// Else the engine follows the value to where it is made.
	origins, ok := p.a.finalizerOrigins(p.reach.Funcs(), op.in, op.value, p.kind())
	if !ok || slices.ContainsFunc(origins, func(o finalizerOrigin) bool { return o.computed }) && slices.ContainsFunc(origins, func(o finalizerOrigin) bool { return !o.computed }) {
		// (A name computed on one path and a constant on another, a
		// special case's: which one the object carries is not said.)
		return false
	}
	for _, o := range origins {
		switch {
		case o.konst != nil:
			addConst(o.konst)
		case len(*sites) == 0:
			s := p.a.site(o.expr.Pos())
			s.Name = o.value
			s.Note = "a string literal: no constant declares this finalizer"
			if o.computed {
				s.Name = p.a.exprText(o.expr)
				s.Note = "computed here: no constant declares this finalizer"
			}
			*sites = append(*sites, s)
		}
	}
	return true
}
