package callgraph

import (
	"go/types"
	"slices"
	"sync"

	"golang.org/x/tools/go/ssa"
)

// A dynamic call runs a method of a value some function converted to an
// interface, or a function some function named as a value (a closure its
// maker made): the call graph joins every such value of the tree to every
// dynamic call it may flow to, so a helper shared by two controllers (a
// runner that calls each step of a list it is handed) reaches, from either
// controller, the steps only the other one makes. Where the values are
// made is what tells them apart.

// makers are, by type name, the own functions that convert a value of the
// type, or a pointer to one, to an interface; and, by function, the own
// functions that name a function as a value.
type makers struct {
	once   sync.Once
	byType map[*types.TypeName][]*ssa.Function
	byFunc map[*ssa.Function][]*ssa.Function
}

// MakersOf returns the own functions one of which has run wherever a
// dynamic call runs fn: for a method, those converting a value of its
// receiver's type to an interface; for a closure, the function making it;
// for any other function, those naming it as a value. None: not known.
func (pr *Program) MakersOf(fn *ssa.Function) []*ssa.Function {
	pr.makers.once.Do(pr.findMakers)
	if recv := fn.Signature.Recv(); recv != nil {
		t := recv.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := t.(*types.Named); ok {
			return pr.makers.byType[n.Obj()]
		}
		return nil
	}
	if fn.Parent() != nil {
		return []*ssa.Function{fn.Parent()}
	}
	return pr.makers.byFunc[fn]
}

// findMakers fills the makers from the own functions' instructions.
func (pr *Program) findMakers() {
	pr.makers.byType = map[*types.TypeName][]*ssa.Function{}
	pr.makers.byFunc = map[*ssa.Function][]*ssa.Function{}
	add := func(m map[*ssa.Function][]*ssa.Function, k, f *ssa.Function) {
		if !slices.Contains(m[k], f) {
			m[k] = append(m[k], f)
		}
	}
	for f := range pr.Own {
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				if mi, ok := in.(*ssa.MakeInterface); ok {
					x := mi.X.Type()
					if p, ok := x.(*types.Pointer); ok {
						x = p.Elem()
					}
					if n, ok := x.(*types.Named); ok && !slices.Contains(pr.makers.byType[n.Obj()], f) {
						pr.makers.byType[n.Obj()] = append(pr.makers.byType[n.Obj()], f)
					}
				}
				var static *ssa.Function
				if c, ok := in.(ssa.CallInstruction); ok {
					static = c.Common().StaticCallee()
				}
				for _, op := range in.Operands(nil) {
					if g, ok := (*op).(*ssa.Function); ok && pr.Own[g] && g != static {
						add(pr.makers.byFunc, g, f)
					}
				}
			}
		}
	}
}
