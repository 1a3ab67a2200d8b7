package locate

import (
	"fmt"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Finalizers the reconcile path only removes: an old one dropped beside
// the current one, both added by another component (a defaulting
// webhook). Which one is the controller's is settled by the additions
// the tree makes off the reconcile path, or not at all.

// removedOnly reads the finalizers the reconcile path removes when it adds
// none: with removals of two constants or more, pick is the one a function
// of the tree off the path adds (add, the addition), when exactly one of
// them is; else ambiguous names them all. With one constant or fewer,
// both are empty.
func (p *pass) removedOnly() (pick *types.Const, add *finOp, ambiguous []*types.Const) {
	removed := p.removedConsts()
	if len(removed) < 2 {
		return nil, nil, nil
	}
	for _, op := range p.addsOffPath() {
		k := finConst(op)
		if !slices.Contains(removed, k) {
			continue
		}
		if pick != nil && pick != k {
			return nil, nil, removed
		}
		pick, add = k, &op
	}
	if pick == nil {
		return nil, nil, removed
	}
	return pick, add, nil
}

// removedConsts are the constants of the finalizers the reconcile path
// removes, when it adds none.
func (p *pass) removedConsts() []*types.Const {
	ops := p.finalizers()
	if len(ops.adds) > 0 || p.kind() == nil {
		return nil
	}
	var removed []*types.Const
	for _, op := range ops.removes {
		for _, v := range append([]finOp{op}, op.calls...) {
			if k := finConst(v); k != nil && !slices.Contains(removed, k) {
				removed = append(removed, k)
			}
		}
	}
	return removed
}

// addedOffPath is the one addition, off the reconcile path, of the
// finalizer the path only removes (the one removedOnly picks, or the only
// one removed); false when there is no such finalizer or it is added
// there at no site or at several.
func (p *pass) addedOffPath() (finOp, bool) {
	pick, add, _ := p.removedOnly()
	if pick != nil {
		return *add, true
	}
	removed := p.removedConsts()
	if len(removed) != 1 {
		return finOp{}, false
	}
	var found []finOp
	for _, op := range p.addsOffPath() {
		if finConst(op) == removed[0] {
			found = append(found, op)
		}
	}
	if len(found) != 1 {
		return finOp{}, false
	}
	return found[0], true
}

// addsOffPath are the additions of finalizers to an object of the primary
// type (a library's AddFinalizer) in the tree's functions the reconcile
// path does not reach: a defaulting webhook's, an admission handler's.
func (p *pass) addsOffPath() []finOp {
	var fns []*ssa.Function
	for fn := range p.a.prog.Own {
		if !p.reach.Has(fn) && body(fn) != nil {
			fns = append(fns, fn)
		}
	}
	slices.SortFunc(fns, func(x, y *ssa.Function) int { return int(x.Pos() - y.Pos()) })
	var out []finOp
	for _, fn := range fns {
		info := p.a.infoAt(body(fn).Pos())
		for _, c := range p.a.callsIn(fn) {
			if !c.known || c.fact.Role != RoleFinalizerAdd {
				continue
			}
			if holder := c.arg(c.fact.Obj); holder != nil && embedsKind(info.TypeOf(holder), p.kind(), 0) {
				out = append(out, finOp{pos: c.expr.Lparen, value: c.arg(c.fact.Arg), info: info, in: fn})
			}
		}
	}
	return out
}

// constNames lists constants as name (file:line).
func (p *pass) constNames(ks []*types.Const) string {
	var out []string
	for _, k := range ks {
		out = append(out, fmt.Sprintf("%s (%s)", k.Name(), fileLine(p.a.objSite(k))))
	}
	return strings.Join(out, ", ")
}
