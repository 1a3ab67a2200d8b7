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
// none: with removals of two finalizers or more, pick is the one a
// function of the tree off the path adds (add, the addition), when
// exactly one of them is; else ambiguous names them all. With one
// finalizer or fewer, or a removal whose value is not followed, all are
// empty.
func (p *pass) removedOnly() (pick types.Object, add *finOp, ambiguous []types.Object) {
	removed, ok := p.removedObjects()
	if !ok || len(removed) < 2 {
		return nil, nil, nil
	}
	for _, op := range p.addsOffPath() {
		objs, ok := p.finalizerObjects(op)
		if !ok || len(objs) != 1 || !slices.Contains(removed, objs[0]) {
			continue
		}
		if pick != nil && pick != objs[0] {
			return nil, nil, removed
		}
		pick, add = objs[0], &op
	}
	if pick == nil {
		return nil, nil, removed
	}
	return pick, add, nil
}

// removedObjects are the constants (or fixed variables) of the finalizers
// the reconcile path removes, when it adds none; false when it adds one,
// or a removal's value is not followed to one.
func (p *pass) removedObjects() ([]types.Object, bool) {
	ops := p.finalizers()
	if len(ops.adds) > 0 || p.kind() == nil || len(ops.removes) == 0 {
		return nil, false
	}
	var removed []types.Object
	for _, op := range ops.removes {
		objs, ok := p.finalizerObjects(op)
		if !ok {
			return nil, false
		}
		for _, o := range objs {
			if !slices.Contains(removed, o) {
				removed = append(removed, o)
			}
		}
	}
	return removed, true
}

// finalizerObjects are the constants (or fixed package variables) an
// op's finalizer is, through the calls of a helper that takes it as a
// parameter, as the finalizer-const row follows them; false when one is
// not followed to such an object.
func (p *pass) finalizerObjects(op finOp) ([]types.Object, bool) {
	vals := op.calls
	if len(vals) == 0 {
		vals = []finOp{op}
	}
	seen := map[types.Object]bool{}
	var sites []Site
	for _, v := range vals {
		if v.value == nil || !p.finalizerConst(v, seen, &sites) {
			return nil, false
		}
	}
	var objs []types.Object
	for o := range seen {
		objs = append(objs, o)
	}
	slices.SortFunc(objs, func(x, y types.Object) int { return int(x.Pos() - y.Pos()) })
	return objs, len(objs) > 0
}

// removesObject reports whether op removes the finalizer obj.
func (p *pass) removesObject(op finOp, obj types.Object) bool {
	objs, ok := p.finalizerObjects(op)
	return ok && slices.Contains(objs, obj)
}

// addedOffPath is the one addition, off the reconcile path, of the
// finalizer the path only removes (the one removedOnly picks, or the only
// one removed); false when there is no such finalizer or it is added
// there at no site or at several.
func (p *pass) addedOffPath() (finOp, bool) {
	if pick, add, _ := p.removedOnly(); pick != nil {
		return *add, true
	}
	removed, ok := p.removedObjects()
	if !ok || len(removed) != 1 {
		return finOp{}, false
	}
	var found []finOp
	for _, op := range p.addsOffPath() {
		if objs, ok := p.finalizerObjects(op); ok && len(objs) == 1 && objs[0] == removed[0] {
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
	ops := p.finalizers()
	if ops.offRead {
		return ops.offPath
	}
	ops.offRead = true
	var fns []*ssa.Function
	for fn := range p.a.prog.Own {
		if !p.reach.Has(fn) && body(fn) != nil {
			fns = append(fns, fn)
		}
	}
	slices.SortFunc(fns, func(x, y *ssa.Function) int { return int(x.Pos() - y.Pos()) })
	for _, fn := range fns {
		info := p.a.infoAt(body(fn).Pos())
		for _, c := range p.a.callsIn(fn) {
			if !c.known || c.fact.Role != RoleFinalizerAdd {
				continue
			}
			if holder := c.arg(c.fact.Obj); holder != nil && embedsKind(info.TypeOf(holder), p.kind(), 0) {
				ops.offPath = append(ops.offPath, finOp{pos: c.expr.Lparen, value: c.arg(c.fact.Arg), info: info, in: fn})
			}
		}
	}
	return ops.offPath
}

// objectNames lists constants (or variables) as name (file:line).
func (p *pass) objectNames(objs []types.Object) string {
	var out []string
	for _, o := range objs {
		out = append(out, fmt.Sprintf("%s (%s)", o.Name(), fileLine(p.a.objSite(o))))
	}
	return strings.Join(out, ", ")
}
