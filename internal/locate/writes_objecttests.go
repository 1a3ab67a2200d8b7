package locate

import (
	"go/token"
	"go/types"
	"maps"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"
)

// The tests of a pass on the primary object's own desired state: its
// spec, labels and annotations. On every pass of an unchanged object such
// a test goes the same way, but which way depends on the object, which
// the code does not settle.

// desiredState is what a reading of a pass knows of the primary object's
// desired state: its kind, the fields of objects of that kind the tree
// writes (a test of one of those is a guard of the write that converges
// it, not a choice of the object), and, by function, its tests of the
// rest.
type desiredState struct {
	kind    *types.Named
	written map[*types.Var]bool
	tests   map[*ssa.Function]map[*ssa.BasicBlock]bool
}

// newDesiredState is the desired state of objects of kind as the
// functions fns see it (nil: the whole tree's).
func (a *analysis) newDesiredState(kind *types.Named, fns []*ssa.Function) *desiredState {
	var written map[*types.Var]bool
	if fns == nil {
		if a.writtenFields == nil {
			a.writtenFields = map[*types.Named]map[*types.Var]bool{}
		}
		if written = a.writtenFields[kind]; written == nil {
			written = kindWritten(kind, slices.Collect(maps.Keys(a.prog.Own)))
			a.writtenFields[kind] = written
		}
	} else {
		written = kindWritten(kind, fns)
	}
	return &desiredState{kind: kind, written: written, tests: map[*ssa.Function]map[*ssa.BasicBlock]bool{}}
}

// kindWritten reads, from the functions, the fields of objects
// of kind that they write: a store into one, an update of a map held in
// one or read from the metadata, one's address or map handed to a call
// (a method of the embedded metadata that takes arguments too). Writing a
// field writes all that it holds. A copy of a value into another of its
// type (a deep copy) changes nothing.
func kindWritten(kind *types.Named, fns []*ssa.Function) map[*types.Var]bool {
	written := map[*types.Var]bool{}
	mark := func(v ssa.Value, getter bool) {
		if c, ok := v.(*ssa.Call); ok && metadataMap(c, kind) {
			getter = true
			if mi, ok := c.Call.Value.(*ssa.MakeInterface); ok && c.Call.IsInvoke() {
				v = mi.X
			} else {
				v = c.Call.Args[0]
			}
		}
		path, ok := fieldPath(v, kind)
		if !ok {
			return
		}
		switch {
		case len(path) > 0:
			written[path[0]] = true
		case getter:
			// a map read from the object's metadata
			for _, f := range metadataFields(kind) {
				written[f] = true
			}
		}
	}
	for _, fn := range fns {
		if copiesInto(fn.Signature) {
			continue
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch x := instr.(type) {
				case *ssa.Store:
					mark(x.Addr, false)
				case *ssa.MapUpdate:
					mark(x.Map, false)
				case ssa.CallInstruction:
					c := x.Common()
					if bi, ok := c.Value.(*ssa.Builtin); ok && (bi.Name() == "len" || bi.Name() == "cap") {
						continue
					}
					callee := c.StaticCallee()
					if callee != nil && (callee.Signature.Recv() != nil && len(c.Args) == 1 || copiesInto(callee.Signature)) {
						continue // a getter, or a copy into a new value
					}
					if callee != nil && callee.Signature.Recv() != nil && types.Identical(deref(c.Args[0].Type()), kind) && slices.ContainsFunc(c.Args[1:], isMapValue) {
						mark(c.Args[0], true) // the object's own setter of a metadata map
					}
					for _, arg := range c.Args {
						if isMapValue(arg) || isPointer(arg.Type()) {
							mark(arg, false)
						}
					}
				}
			}
		}
	}
	return written
}

// isMapValue reports whether v holds a map.
func isMapValue(v ssa.Value) bool {
	_, ok := v.Type().Underlying().(*types.Map)
	return ok
}

// isPointer reports whether t is a pointer type.
func isPointer(t types.Type) bool {
	_, ok := t.Underlying().(*types.Pointer)
	return ok
}

// testsIn are fn's branches whose condition reads only the primary
// object's desired state that the pass does not write, and constants
// (range-loop tests aside).
func (d *desiredState) testsIn(fn *ssa.Function) map[*ssa.BasicBlock]bool {
	if m, ok := d.tests[fn]; ok {
		return m
	}
	out := map[*ssa.BasicBlock]bool{}
	loops := rangeTests(fn)
	for _, b := range fn.Blocks {
		ifs, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		if _, loop := loops[b]; loop {
			continue
		}
		if only, touches := d.desiredOnly(ifs.Cond, 0); only && touches {
			out[b] = true
		}
	}
	d.tests[fn] = out
	return out
}

// desiredOnly reports whether v is computed only from constants and the
// desired state of an object of kind (only), and whether it reads that
// state at all (touches).
func (d *desiredState) desiredOnly(v ssa.Value, depth int) (only, touches bool) {
	if depth > 8 {
		return false, false
	}
	both := func(xs ...ssa.Value) (bool, bool) {
		only, touches := true, false
		for _, x := range xs {
			o, t := d.desiredOnly(x, depth+1)
			only, touches = only && o, touches || t
		}
		return only, touches
	}
	switch v := v.(type) {
	case *ssa.Const:
		return true, false
	case *ssa.UnOp:
		if v.Op == token.ARROW {
			return false, false
		}
		if v.Op == token.MUL {
			return d.desiredField(v.X), true
		}
		return both(v.X)
	case *ssa.BinOp:
		return both(v.X, v.Y)
	case *ssa.Lookup:
		return both(v.X, v.Index)
	case *ssa.Extract:
		if l, ok := v.Tuple.(*ssa.Lookup); ok {
			return both(l)
		}
	case *ssa.Field, *ssa.FieldAddr:
		return d.desiredField(v), true
	case *ssa.Call:
		if b, ok := v.Call.Value.(*ssa.Builtin); ok && (b.Name() == "len" || b.Name() == "cap") && len(v.Call.Args) == 1 {
			return both(v.Call.Args[0])
		}
		return metadataMap(v, d.kind) && !d.metadataWritten(), true
	}
	return false, false
}

// desiredField reports whether v is a field of an object of the kind's
// spec, at any depth, or the labels or annotations of its metadata (the
// maps of the metadata it embeds), and the pass writes none of the fields
// on its way.
func (d *desiredState) desiredField(v ssa.Value) bool {
	path, ok := fieldPath(v, d.kind)
	if !ok || len(path) == 0 || slices.ContainsFunc(path, func(f *types.Var) bool { return d.written[f] }) {
		return false
	}
	top := path[len(path)-1]
	if top.Name() == specField && !top.Embedded() {
		return true
	}
	if top.Embedded() && len(path) >= 2 {
		_, isMap := path[len(path)-2].Type().Underlying().(*types.Map)
		return isMap
	}
	return false
}

// metadataMap reports whether a call reads a map from an object of kind's
// embedded metadata: a method of the metadata, called on the object's
// embedded field or through an interface holding the object, whose result
// is a map (its labels or annotations).
func metadataMap(c *ssa.Call, kind *types.Named) bool {
	sig := c.Call.Signature()
	if sig.Results().Len() != 1 {
		return false
	}
	if _, ok := sig.Results().At(0).Type().Underlying().(*types.Map); !ok {
		return false
	}
	if c.Call.IsInvoke() {
		mi, ok := c.Call.Value.(*ssa.MakeInterface)
		return ok && types.Identical(deref(mi.X.Type()), kind)
	}
	callee := c.Call.StaticCallee()
	if callee == nil || callee.Signature.Recv() == nil || len(c.Call.Args) == 0 {
		return false
	}
	recv := c.Call.Args[0]
	if types.Identical(deref(recv.Type()), kind) {
		return true
	}
	fa, ok := recv.(*ssa.FieldAddr)
	if !ok || !types.Identical(deref(fa.X.Type()), kind) {
		return false
	}
	return deref(fa.X.Type()).Underlying().(*types.Struct).Field(fa.Field).Embedded()
}

// reachesCut are the blocks of fn from which a path reaches one of the cut
// blocks.
func reachesCut(cut map[*ssa.BasicBlock]bool) map[*ssa.BasicBlock]bool {
	return reachesCutAvoiding(cut, nil)
}

// reachesCutAvoiding are the blocks from which a path reaches one of the
// cut blocks without passing through avoid (nil: any path).
func reachesCutAvoiding(cut map[*ssa.BasicBlock]bool, avoid *ssa.BasicBlock) map[*ssa.BasicBlock]bool {
	out := map[*ssa.BasicBlock]bool{}
	var stack []*ssa.BasicBlock
	for b := range cut {
		stack = append(stack, b)
	}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if out[b] || b == avoid {
			continue
		}
		out[b] = true
		stack = append(stack, b.Preds...)
	}
	return out
}

// objectTestAround is the nearest test of the object's desired state
// before the write in fn that the write lies on one way of only, else
// before the call of fn (and of its callers, along via) that leads to it;
// token.NoPos when there is none.
func (a *analysis) objectTestAround(fn *ssa.Function, pos token.Pos, d *desiredState, via map[*ssa.Function]*callgraph.Edge) token.Pos {
	return testAround(fn, pos, d.testsIn, via)
}

// testAround is the nearest of the tests (by function) before the write
// at pos in fn that the write lies on one way of only, else before the
// call of fn (and of its callers, along via) that leads to it;
// token.NoPos when there is none.
func testAround(fn *ssa.Function, pos token.Pos, tests func(*ssa.Function) map[*ssa.BasicBlock]bool, via map[*ssa.Function]*callgraph.Edge) token.Pos {
	at := instrAt(fn, pos)
	for range maxLoopClimb {
		best := token.NoPos
		if at != nil {
			toward := reachesCut(map[*ssa.BasicBlock]bool{at.Block(): true})
			for b := range tests(fn) {
				ways := 0
				for _, next := range b.Succs {
					if toward[next] {
						ways++
					}
				}
				if ways > 1 {
					// In a loop, the way that reaches the write
					// without coming back round to the test.
					direct := reachesCutAvoiding(map[*ssa.BasicBlock]bool{at.Block(): true}, b)
					ways = 0
					for _, next := range b.Succs {
						if direct[next] {
							ways++
						}
					}
				}
				cond := b.Instrs[len(b.Instrs)-1].(*ssa.If).Cond.Pos()
				if ways == 1 && cond.IsValid() && cond > best {
					best = cond
				}
			}
		}
		if best.IsValid() {
			return best
		}
		e := via[fn]
		if e == nil || e.Site == nil {
			return token.NoPos
		}
		fn, at = e.Caller.Func, e.Site
	}
	return token.NoPos
}

// instrAt is the call instruction of fn at pos, nil when there is none.
func instrAt(fn *ssa.Function, pos token.Pos) ssa.Instruction {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if ci, ok := instr.(ssa.CallInstruction); ok && ci.Common().Pos() == pos {
				return instr
			}
		}
	}
	return nil
}

// metadataFields are the fields of kind's struct that hold its metadata:
// those it embeds, or, for a kind that embeds none (an unstructured
// object), its maps.
func metadataFields(kind *types.Named) []*types.Var {
	st, ok := kind.Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	var embedded, maps []*types.Var
	for i := range st.NumFields() {
		f := st.Field(i)
		if f.Embedded() {
			embedded = append(embedded, f)
		} else if _, isMap := f.Type().Underlying().(*types.Map); isMap {
			maps = append(maps, f)
		}
	}
	if len(embedded) > 0 {
		return embedded
	}
	return maps
}

// metadataWritten reports whether the tree writes the object's embedded
// metadata, or a map it holds.
func (d *desiredState) metadataWritten() bool {
	for _, f := range metadataFields(d.kind) {
		if d.written[f] {
			return true
		}
		if st, ok := f.Type().Underlying().(*types.Struct); ok {
			for i := range st.NumFields() {
				if _, isMap := st.Field(i).Type().Underlying().(*types.Map); isMap && d.written[st.Field(i)] {
					return true
				}
			}
		}
	}
	return false
}

// yieldsMap reports whether a selection gives a map: a field holding one,
// or a method without arguments returning one.
func yieldsMap(sel *types.Selection) bool {
	t := sel.Type()
	if sig, ok := t.(*types.Signature); ok {
		if sig.Params().Len() != 0 || sig.Results().Len() != 1 {
			return false
		}
		t = sig.Results().At(0).Type()
	}
	_, ok := t.Underlying().(*types.Map)
	return ok
}

// copiesInto reports whether a method copies its receiver into its only
// parameter, of the same type, returning nothing (a deep copy into).
func copiesInto(sig *types.Signature) bool {
	return sig.Recv() != nil && sig.Params().Len() == 1 && sig.Results().Len() == 0 &&
		types.Identical(sig.Params().At(0).Type(), sig.Recv().Type())
}

// fieldPath is the fields v selects, innermost first, from a value of
// kind (or a pointer to one), through loads; ok is false when v is not
// selected from such a value.
func fieldPath(v ssa.Value, kind *types.Named) (path []*types.Var, ok bool) {
	for range 16 {
		if types.Identical(deref(v.Type()), kind) {
			return path, true
		}
		switch x := v.(type) {
		case *ssa.FieldAddr:
			path = append(path, deref(x.X.Type()).Underlying().(*types.Struct).Field(x.Field))
			v = x.X
		case *ssa.Field:
			path = append(path, x.X.Type().Underlying().(*types.Struct).Field(x.Field))
			v = x.X
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return nil, false
			}
			v = x.X
		default:
			return nil, false
		}
	}
	return nil, false
}
