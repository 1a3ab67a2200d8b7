package locate

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// driftGuards finds, in one function of the reconcile path, the write a
// comparison guards: a write to the cluster in the guarded statements,
// made there or by a helper of the tree's own they call.
type driftGuards struct {
	a    *analysis
	fn   *ssa.Function
	info *types.Info
	kind *types.Named
	// parents maps each node of fn's body (not inside a closure) to the
	// node holding it.
	parents map[ast.Node]ast.Node
	// objects are the variables of fn holding the object the re-read
	// returned (objectVars).
	objects map[*types.Var]bool
}

// maxWriteHelpers bounds the helpers followed to the write they make (a
// helper whose body is one call it hands on is not counted);
// maxDesiredHelpers, those of a helper handed the desired object, and all
// helpers followed.
const (
	maxWriteHelpers   = 2
	maxDesiredHelpers = 8
)

// write describes the write call c (read with info) makes: a write of the
// cluster that is neither an event, a status write nor a write of the
// primary's own kind (whose Spec is the desired state).
func (g driftGuards) write(info *types.Info, c call) (writeDesc, bool) {
	if !g.a.driftWrite(info, c, g.kind) {
		return writeDesc{}, false
	}
	return g.a.writeOf(info, c)
}

// firstWrite is the first call of fn between from and to that writes: a
// write itself, or the call of one function of the tree's own that writes
// (patchConfigMap wrapping the client's Patch), made there or in the body
// of a closure of fn called there (at once, or through the variable it is
// assigned to); with what the write is.
func (g driftGuards) firstWrite(from, to token.Pos) (*call, writeDesc) {
	for _, c := range g.a.callsIn(g.fn) {
		if c.expr.Pos() < from || c.expr.End() > to {
			continue
		}
		if w, ok := g.write(g.info, c); ok {
			return &c, w
		}
		if w, ok := g.specApplied(c, from); ok {
			return &c, w
		}
		for _, inner := range g.closureCalls(c, g.fn) {
			if w, ok := g.write(g.info, inner); ok {
				return &inner, w
			}
			if w, ok := g.specApplied(inner, from); ok {
				return &inner, w
			}
			if w, ok := g.helperWrite(g.a.infoAt(inner.expr.Pos()), inner, 0, maxWriteHelpers); ok {
				return &inner, w
			}
		}
		if w, ok := g.helperWrite(g.info, c, 0, maxWriteHelpers); ok {
			return &c, w
		}
	}
	// Else the first call of a helper of the tree, deeper, that is
	// handed an object of another kind and writes
	// (k8s.ForceUpdateStatefulSet(ctx, client, desired)): the helper's
	// call applies the difference.
	for _, c := range g.a.callsIn(g.fn) {
		if c.expr.Pos() < from || c.expr.End() > to || c.known || len(c.own) == 0 {
			continue
		}
		calls := []call{c}
		if closure := closureOf(c, g.fn); closure != nil {
			calls = g.a.callsIn(closure) // a closure called there
		}
		for _, h := range calls {
			if h.known || len(h.own) == 0 || !handsOtherObject(g.info, h, g.kind) {
				continue
			}
			if desc, ok := g.helperWrite(g.a.infoAt(h.expr.Pos()), h, 0, maxDesiredHelpers); ok {
				return &h, desc
			}
		}
	}
	return nil, writeDesc{}
}

// helperWrite is the write made by the one declared function of the
// tree's own a call runs (statically, or through an interface the tree
// implements once: a client wrapper), in its body or a helper it calls in
// turn (to max calls deep). A helper handed the primary object and no
// other (handsOnlyPrimary; info is the calling function's) writes the
// primary's own state, unless what it writes is an object of a concrete
// type of another kind, which it builds (ownedWrite).
func (g driftGuards) helperWrite(info *types.Info, c call, depth, max int) (writeDesc, bool) {
	return g.helperWriteOf(info, c, depth, max, false)
}

// helperWriteOf is helperWrite; with built, only a write of an object of a
// concrete type of another kind than the primary counts.
func (g driftGuards) helperWriteOf(info *types.Info, c call, depth, max int, built bool) (writeDesc, bool) {
	if c.known || len(c.own) != 1 || depth >= max || c.fn == nil {
		return writeDesc{}, false
	}
	built = built || g.handsOnlyPrimary(info, c)
	callee := c.own[0]
	if callee.Parent() != nil || callee == g.fn {
		return writeDesc{}, false
	}
	b := body(callee)
	if b == nil {
		return writeDesc{}, false
	}
	in := g.a.infoAt(b.Pos())
	if in == nil {
		return writeDesc{}, false
	}
	forwards := forwardCall(b) != nil
	if forwards && max < maxDesiredHelpers {
		// A helper that only hands its call on adds no step between
		// the comparison and the write.
		max++
	}
	// Its calls, and those of a function literal it calls (return
	// func() error { … }(), or one it is handed), read as if inline.
	var calls []call
	for _, inner := range g.a.callsIn(callee) {
		calls = append(calls, inner)
		calls = append(calls, g.closureCalls(inner, callee)...)
	}
	for _, inner := range calls {
		w, ok := g.write(in, inner)
		if ok && built && !g.ownedWrite(in, inner) {
			ok = false
		}
		if !ok {
			w, ok = g.helperWriteOf(in, inner, depth+1, max, built)
		}
		if !ok {
			continue
		}
		if !isInterfaceMethod(c.fn) && (w.madeAt == nil || !forwards) {
			// The helper the call names applies, at its own call that
			// writes (one that only hands the call on, at the call of
			// the helper it names); a client wrapper reached through
			// an interface is the client.
			w.madeAt = &inner
		}
		return w, true
	}
	return writeDesc{}, false
}

// writeAfter is the first write made after the statement head (an if
// chain whose branch returns) once the blocks holding it are left: the
// statements that follow head, then those that follow each enclosing
// statement, up to fn's body or the nearest loop (a return inside a loop
// guards its turn, not what the loop leaves behind); a clause of a switch
// or select is left for the statement holding it, not for the clauses
// beside it, which are its alternatives. It returns the write,
// what it is and the statements it was looked for in.
func (g driftGuards) writeAfter(head ast.Stmt) (*call, writeDesc, *ast.BlockStmt) {
	var seen []ast.Stmt
	for node := ast.Node(head); ; {
		parent := g.parents[node]
		var list []ast.Stmt
		switch p := parent.(type) {
		case nil, *ast.ForStmt, *ast.RangeStmt:
			return nil, writeDesc{}, nil
		case *ast.BlockStmt:
			switch node.(type) {
			case *ast.CaseClause, *ast.CommClause:
				// The other clauses of a switch or select are
				// alternatives to this one, not what follows it.
			default:
				list = p.List
			}
		case *ast.CaseClause:
			list = p.Body
		case *ast.CommClause:
			list = p.Body
		}
		for i, st := range list {
			if st != node || i+1 == len(list) {
				continue
			}
			rest := list[i+1:]
			seen = append(seen, rest...)
			if w, desc := g.firstWrite(rest[0].Pos(), rest[len(rest)-1].End()); w != nil {
				return w, desc, &ast.BlockStmt{List: seen}
			}
		}
		node = parent
	}
}

// parentsIn maps each node of a function body, outside its closures, to
// the node holding it.
func parentsIn(b *ast.BlockStmt) map[ast.Node]ast.Node {
	parents := map[ast.Node]ast.Node{}
	var stack []ast.Node
	ast.Inspect(b, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		if len(stack) > 0 {
			parents[n] = stack[len(stack)-1]
		}
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		stack = append(stack, n)
		return true
	})
	return parents
}

// closureCalls are the calls of the closure a call made in fn runs
// (closureOf, or runsFuncValue: a function literal handed to fn as a
// parameter), and of the closures those calls run in turn, read as if
// inline.
func (g driftGuards) closureCalls(c call, fn *ssa.Function) []call {
	var out []call
	seen := map[*ssa.Function]bool{}
	var add func(c call, fn *ssa.Function)
	add = func(c call, fn *ssa.Function) {
		closure := closureOf(c, fn)
		if closure == nil && runsFuncValue(c) {
			closure = c.own[0]
		}
		if closure == nil || seen[closure] {
			return
		}
		seen[closure] = true
		for _, inner := range g.a.callsIn(closure) {
			out = append(out, inner)
			add(inner, closure)
		}
	}
	add(c, fn)
	return out
}

// closureOf is the closure of fn a call made in fn runs, at once or
// through the variable it is assigned to; the call of a generic function's
// closure names the closure of every instance, and fn's own is the one.
func closureOf(c call, fn *ssa.Function) *ssa.Function {
	for _, own := range c.own {
		if own.Parent() == fn {
			return own
		}
	}
	return nil
}

// handsOnlyPrimary reports whether a call is handed the primary object
// (by its type) and no object of another kind, when the tree declares the
// primary type: what such a helper writes is the primary's own state, as
// writesOwnKind says of a write.
func (g driftGuards) handsOnlyPrimary(info *types.Info, c call) bool {
	if info == nil || g.kind == nil || handsOtherObject(info, c, g.kind) {
		return false
	}
	if _, own := g.a.fileAt(g.kind.Obj().Pos()); !own {
		return false
	}
	for _, arg := range c.expr.Args {
		if t := info.TypeOf(arg); t != nil && isKind(t, g.kind) {
			return true
		}
	}
	return false
}

// guardedWrite is a write a comparison guards, with what it is.
type guardedWrite struct {
	at   *call
	desc writeDesc
}

// branchWrites are the first writes of the branches the statements of a
// guarded block split into (the clauses of a switch, the two branches of
// an if-else), but first's (desc made at its call or in the helper it
// calls): each applies the difference its own way. A block that hands back
// a helper's result splits as the helper's body does (a branch extracted
// into a helper), to maxBranchHelpers helpers deep.
func (g driftGuards) branchWrites(guarded *ast.BlockStmt, first *call, desc writeDesc) []guardedWrite {
	seen := map[*ast.CallExpr]bool{first.expr: true}
	if desc.madeAt != nil {
		seen[desc.madeAt.expr] = true
	}
	return g.branchWritesIn(guarded, seen, 0)
}

// branchWritesIn is branchWrites, leaving out the writes in seen.
func (g driftGuards) branchWritesIn(guarded *ast.BlockStmt, seen map[*ast.CallExpr]bool, depth int) []guardedWrite {
	var spans []ast.Node
	for _, st := range guarded.List {
		switch st := st.(type) {
		case *ast.SwitchStmt:
			for _, cc := range st.Body.List {
				spans = append(spans, cc)
			}
		case *ast.TypeSwitchStmt:
			for _, cc := range st.Body.List {
				spans = append(spans, cc)
			}
		case *ast.IfStmt:
			if st.Else != nil {
				spans = append(spans, st.Body, st.Else)
			}
		}
	}
	var out []guardedWrite
	for _, sp := range spans {
		if w, desc := g.firstWrite(sp.Pos(), sp.End()); w != nil && !seen[w.expr] {
			seen[w.expr] = true
			out = append(out, guardedWrite{w, desc})
		}
	}
	if depth == maxBranchHelpers {
		return out
	}
	handed := g.a.returnedCalls(g.info, guarded)
	for _, c := range g.a.callsIn(g.fn) {
		if !handed[c.expr.Lparen] {
			continue
		}
		// A helper, or a closure called there (its body read as the
		// block's own).
		h, b := ownHelper(c), (*ast.BlockStmt)(nil)
		if h != nil {
			b = body(h)
		} else if h = closureOf(c, g.fn); h != nil {
			if lit, ok := h.Syntax().(*ast.FuncLit); ok {
				b = lit.Body
			}
		}
		if h == nil || h == g.fn || b == nil {
			continue
		}
		hg := driftGuards{a: g.a, fn: h, info: g.a.infoAt(b.Pos()), kind: g.kind, parents: parentsIn(b)}
		out = append(out, hg.branchWritesIn(b, seen, depth+1)...)
	}
	return out
}

// ownedWrite reports whether a write call writes an object of a concrete
// API type of another kind than the primary (an ExternalArtifact a helper
// handed the primary builds and applies).
func (g driftGuards) ownedWrite(info *types.Info, c call) bool {
	t := writtenType(info, c)
	return t != nil && !isKindValue(t, g.kind) && IsObjectPointer(types.NewPointer(t))
}
