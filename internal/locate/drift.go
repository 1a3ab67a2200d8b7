package locate

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strconv"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"
	"github.com/ctrlcmp/ctrlcmp/internal/cite"
)

// drift finds where desired state is compared with the live cluster and
// what applies the difference: a server-side apply through a library that
// detects drift (then the library's own comparison and apply, cited at the
// version the tree requires), or a comparison written by hand that guards a
// write.
//
// A comparison is of desired with live state when one of its sides reads
// live state (readsLive): a guard on the primary's desired state alone
// (`if name == ""` on a spec field) compares nothing with the cluster.
func (a *analysis) drift(reach *callgraph.Reach, kind *types.Named, objects map[*ssa.Function]map[*types.Var]bool) []Step {
	var out []Step
	for _, fn := range reach.Funcs() {
		b := body(fn)
		if b == nil {
			continue
		}
		info := a.infoAt(b.Pos())
		for _, c := range a.callsIn(fn) {
			if !c.known || c.fact.Role != RoleApply {
				continue
			}
			how := c.fact.Verb + " " + c.fact.Target + "; the library compares a dry run with the live objects and applies only what drifted"
			if c.fact.Summary != "" {
				how = c.fact.Summary
			}
			out = append(out, Step{Site: applySite(a.site(c.expr.Lparen).Site, fn), Step: StepApply, Note: "calls " + cite.ObjectName(c.fn) + ": " + how})
			out = append(out, a.libraryDrift(c)...)
		}
		g := driftGuards{a: a, fn: fn, info: info, kind: kind, parents: parentsIn(b), objects: objects[fn]}
		ast.Inspect(b, func(n ast.Node) bool {
			var list []ast.Stmt
			var end token.Pos
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.SwitchStmt:
				out = append(out, g.stateSwitch(b, n)...)
				return true
			case *ast.BlockStmt:
				list, end = n.List, n.End()
			case *ast.CaseClause:
				list, end = n.Body, n.End()
			case *ast.CommClause:
				list, end = n.Body, n.End()
			default:
				return true
			}
			// Each if, and the else-ifs chained to it, with the statements
			// that follow the whole chain.
			type link struct {
				ifs  *ast.IfStmt
				head ast.Stmt
				rest []ast.Stmt
			}
			var chain []link
			for i, st := range list {
				for ifs, _ := st.(*ast.IfStmt); ifs != nil; ifs, _ = ifs.Else.(*ast.IfStmt) {
					chain = append(chain, link{ifs, st, list[i+1:]})
				}
			}
			for _, l := range chain {
				ifs := l.ifs
				// The write the comparison guards: in its branch, or after
				// it when the branch ends the pass or the loop's turn with
				// nothing done (equal: nothing to do) or is taken when the
				// states are equal and leaves, whatever it writes or
				// hands back (leavesWhenEqual); a state test guards the
				// code that sets what it tested. A branch that returns a
				// failure tested a precondition, not drift.
				guarded := ifs.Body
				w, desc := g.firstWrite(ifs.Body.Pos(), ifs.Body.End())
				if a.leavesWhenEqual(info, b, ifs) || w == nil && a.endsIdle(info, fn, ifs.Body) && a.leavePolarity(info, b, ifs.Cond, 0) >= 0 {
					if w == nil && waitsForValue(info, b, kind, ifs) {
						// if len(ingress(svc)) == 0 { return wait }: the pass
						// waits for a value to appear; what it writes after
						// is not guarded by a comparison.
						continue
					}
					w, desc = g.firstWrite(ifs.End(), end)
					guarded = &ast.BlockStmt{List: l.rest}
					if w == nil && endsTurn(ifs.Body.List[len(ifs.Body.List)-1]) {
						w, desc, guarded = g.writeAfter(l.head)
					}
				}
				if els, ok := ifs.Else.(*ast.BlockStmt); ok && w == nil {
					// if !needsScale(…) { note } else { write }: the write
					// the else branch makes runs when the test fails.
					w, desc = g.firstWrite(els.Pos(), els.End())
					guarded = els
				}
				if w == nil || !a.compares(info, b, kind, ifs.Cond, guarded, 0, nil) {
					continue
				}
				out = append(out, Step{Site: a.site(ifs.Pos()).Site, Step: StepCompare, Note: "desired state compared with what the cluster holds, by hand"})
				for _, set := range a.flagComparisons(info, b, kind, ifs.Cond, 0, nil) {
					out = append(out, Step{Site: a.site(set.Pos()).Site, Step: StepCompare, Note: "compares and sets the flag the guard at line " + strconv.Itoa(a.site(ifs.Pos()).Line) + " tests"})
				}
				out = append(out, a.applySteps(w, desc)...)
				// A guarded branch that splits (by kind, by policy)
				// applies the difference in each of its ways.
				for _, bw := range g.branchWrites(guarded, w, desc) {
					out = append(out, a.applySteps(bw.at, bw.desc)...)
				}
			}
			return true
		})
	}
	return out
}

// endsTurn reports whether a statement ends the pass or the loop's turn:
// a return, or a continue of the loop it stands in.
func endsTurn(st ast.Stmt) bool {
	switch st := st.(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		return st.Tok == token.CONTINUE && st.Label == nil
	}
	return false
}

// endsIdle reports whether a block of fn ends the pass or the loop's turn
// without a failure: its last statement is a continue, or a return whose
// error (the last result, when it is one) is nil, written so or settled so
// by the value-flow engine (return done(), done returning nil).
func (a *analysis) endsIdle(info *types.Info, fn *ssa.Function, b *ast.BlockStmt) bool {
	if len(b.List) == 0 {
		return false
	}
	switch last := b.List[len(b.List)-1].(type) {
	case *ast.BranchStmt:
		return last.Tok == token.CONTINUE && last.Label == nil
	case *ast.ReturnStmt:
		results := last.Results
		if len(results) == 0 && fn.Signature.Results().Len() > 0 {
			// A bare return hands back the named results assigned
			// just before it; others are not followed.
			rs, _, ok := returnedBy(info, fn, b.List)
			if !ok || len(rs) == 0 {
				return false
			}
			results = rs
		}
		n := len(results)
		if n == 0 {
			return true
		}
		r := results[n-1]
		t := info.TypeOf(r)
		if tuple, ok := t.(*types.Tuple); ok {
			return a.tupleEndsIdle(info, fn, r, tuple)
		}
		if t == nil || !isErrorType(t) || isNil(info, r) {
			return true
		}
		fb := a.flowBodyOf(fn)
		if fb == nil {
			return false
		}
		vals := (&flowEngine{a: a}).values(fb, r)
		for _, v := range vals {
			if !v.zero {
				return false
			}
		}
		return len(vals) > 0
	}
	return false
}

// compares reports whether a condition compares desired with live state:
// a deep comparison from the knowledge table, or ==, != between values that
// are neither nil nor errors nor the deletion timestamp nor an object's
// identity (its name, namespace or UID: which object), one side (one
// argument) reading live state, or a predicate of the tree's own handed
// live state whose body compares (deploymentNeedsUpdate(obj, live)). A
// live field tested against a constant (phase == Done), or a local holding
// a live value (owner := cm.Labels[k]; owner == "", len(pods) == 0), is a
// test of state, not a comparison with desired state, unless the branch it
// guards sets that field (the desired value written back) or deletes what
// it found. depth bounds the
// predicates followed; given are the parameters of the predicate being
// read that its caller handed live state. A test of whether the primary
// object exists (testsExistence) compares nothing.
func (a *analysis) compares(info *types.Info, body *ast.BlockStmt, kind *types.Named, cond ast.Expr, branch *ast.BlockStmt, depth int, given map[*types.Var]bool) bool {
	if testsExistence(info, cond, kind) {
		return false
	}
	found := false
	live := func(es ...ast.Expr) bool {
		for _, e := range es {
			if a.readsLive(info, body, kind, e, given, map[*types.Var]bool{}) {
				return true
			}
		}
		return false
	}
	ast.Inspect(cond, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			// A bool held from a predicate's first result
			// (update, c := needsUpdate(live, want); update).
			if call := boolFromCall(info, body, id); call != nil {
				n = call
			} else if v := localBool(info, id); v != nil && depth < 2 {
				// A bool the function computes (needsUpdate :=
				// live.Hash != hash || …): what it is assigned compares;
				// a flag set in branches (updated = true under if
				// portsDiff != ""): what their conditions compare.
				for _, rhs := range assignmentsTo(info, body, v) {
					if !isConst(info, rhs) && a.compares(info, body, kind, rhs, branch, depth+1, given) {
						found = true
					}
				}
				found = found || len(a.flagComparisons(info, body, kind, id, depth, given)) > 0
				return !found
			}
		}
		switch e := n.(type) {
		case *ast.CallExpr:
			if lenOfLocal(info, body, e) != nil {
				// The changes recorded in a slice (len(changes) > 0):
				// what the conditions that append to it compare.
				found = depth < 2 && len(a.flagComparisons(info, body, kind, e, depth, given)) > 0
				return false
			}
			c := a.makeCall(info, e, nil)
			switch {
			case c.known && c.fact.Role == RoleCompare && c.fact.Receiver:
				// result.IsEmpty() of result, err := maker.Calculate(current,
				// modified): what the call that made the result was handed.
				// (Through an identity handing the method value on, or an
				// interface the result is converted to.)
				if sel, ok := ast.Unparen(a.passedFun(info, e.Fun)).(*ast.SelectorExpr); ok {
					if v := rootVar(info, stripConversions(info, sel.X)); given[v] {
						found = true // a predicate's parameter, made so by its caller
					} else if made := a.madeFromLive(info, body, v, live); made {
						found = true
					}
				}
			case c.known && c.fact.Role == RoleCompare && len(e.Args) >= 2 && sameValue(info, e.Args[0], e.Args[1]):
				return false
			case c.known && c.fact.Role == RoleCompare && live(e.Args...):
				found = true
			case !c.known && depth < 2 && len(c.own) == 1 && firstResultBool(c.own[0]) && (live(e.Args...) || c.own[0].Parent() != nil):
				// A predicate handed live state reads it through the
				// parameters it is handed; a closure reads the live state
				// it captures.
				// A comparison's result (result.IsEmpty() moved into
				// a predicate) is handed as what it compared.
				handed := map[*types.Var]bool{}
				params := c.own[0].Signature.Params()
				for i, arg := range e.Args {
					if i < params.Len() && (live(arg) || a.madeFromLive(info, body, rootVar(info, arg), live)) {
						handed[params.At(i)] = true
					}
				}
				found = a.predicateCompares(c.own[0], kind, depth+1, handed)
			}
		case *ast.SelectorExpr:
			// A bool field of what a comparison helper returned
			// (cmp := c.compareWith(desired); !cmp.match).
			if depth < 2 {
				if call, callee := a.comparisonResult(info, body, e); callee != nil {
					handed := map[*types.Var]bool{}
					params := callee.Signature.Params()
					for i, arg := range call.Args {
						if i < params.Len() && live(arg) {
							handed[params.At(i)] = true
						}
					}
					found = a.predicateCompares(callee, kind, depth+1, handed)
				}
			}
		case *ast.BinaryExpr:
			if e.Op != token.EQL && e.Op != token.NEQ {
				return true
			}
			for _, side := range []ast.Expr{e.X, e.Y} {
				if isNil(info, side) || a.isDeletionTimestamp(info, side) || readsIdentity(info, side) || holdsIdentity(info, body, side) && (isConst(info, e.X) || isConst(info, e.Y)) {
					return true
				}
				if t := info.TypeOf(side); t == nil || isErrorType(t) {
					return true
				}
			}
			if testsProgress(info, e) {
				return true // an object's progress, or its status
			}
			if g := getterTested(info, e); g != "" && !a.branchDoes(info, body, branch, func(info *types.Info, b *ast.BlockStmt) bool {
				return callsSetter(info, b, g) || a.deletesIn(info, b)
			}) {
				return true
			}
			if field, ok := stateTest(info, body, e, depth == 0); ok && !a.branchDoes(info, body, branch, func(info *types.Info, b *ast.BlockStmt) bool {
				return field != nil && assignsField(info, b, field, leftState(info, e)) || a.deletesIn(info, b) || a.setsEntry(info, b)
			}) {
				return true
			}
			found = !sameValue(info, e.X, e.Y) && live(e.X, e.Y)
		}
		return !found
	})
	return found
}

// madeFromLive reports whether v is the result of one call of body, to a
// library, handed live state (result, err := maker.Calculate(current,
// modified)).
func (a *analysis) madeFromLive(info *types.Info, body *ast.BlockStmt, v *types.Var, live func(...ast.Expr) bool) bool {
	if v == nil {
		return false
	}
	made := onlyCallDef(info, body, v)
	return made != nil && len(a.makeCall(info, made, nil).own) == 0 && live(made.Args...)
}

// predicateCompares reports whether a predicate's body compares desired
// with live state: in the condition of an if or in a returned value. Its
// parameters in given were handed live state: they read it. A function
// that writes, itself or through the functions it calls, is no predicate:
// the bool it returns says what it did (a finalizer added), not whether
// two states differ.
func (a *analysis) predicateCompares(fn *ssa.Function, kind *types.Named, depth int, given map[*types.Var]bool) bool {
	b := body(fn)
	if b == nil || a.writesAny(fn) {
		return false
	}
	info := a.infoAt(b.Pos())
	if info == nil {
		return false
	}
	// A closure's variables are those of the function that makes it.
	scope := b
	for root := fn; root.Parent() != nil; root = root.Parent() {
		if rb := body(root.Parent()); rb != nil {
			scope = rb
		}
	}
	found := false
	ast.Inspect(b, func(n ast.Node) bool {
		if found {
			return false
		}
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.IfStmt:
			found = a.compares(info, scope, kind, x.Cond, x.Body, depth, given)
		case *ast.ReturnStmt:
			for _, r := range x.Results {
				if t := info.TypeOf(r); t != nil && !isConst(info, r) {
					found = found || a.compares(info, scope, kind, r, nil, depth, given)
				}
			}
		}
		return !found
	})
	return found
}

// isConst reports whether e is a constant expression.
func isConst(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[ast.Unparen(e)]
	return ok && tv.Value != nil
}

// deletesIn reports whether a block deletes an object: what a state test
// found is then removed (a ConfigMap labelled stale), which applies the
// desired state as writing the tested field back does.
func (a *analysis) deletesIn(info *types.Info, b *ast.BlockStmt) bool {
	if b == nil {
		return false
	}
	found := false
	ast.Inspect(b, func(n ast.Node) bool {
		if ce, ok := n.(*ast.CallExpr); ok && !found {
			w, ok := a.writeOf(info, a.makeCall(info, ce, nil))
			found = ok && w.verb == verbDelete
		}
		return !found
	})
	return found
}

// assignsField reports whether a block assigns a field, other than
// another constant than left, the state a test found it in (leftState):
// that moves the object on from that state (phase == Delete, then phase
// = Retain), it writes back no value the test compared.
func assignsField(info *types.Info, b *ast.BlockStmt, field *types.Var, left constant.Value) bool {
	if b == nil {
		return false
	}
	found := false
	ast.Inspect(b, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok {
			return !found
		}
		for i, l := range as.Lhs {
			if ix, ok := ast.Unparen(l).(*ast.IndexExpr); ok {
				l = ix.X // an element of the field
			}
			if s, ok := ast.Unparen(l).(*ast.SelectorExpr); ok && info.Uses[s.Sel] == field {
				found = !movesOn(info, as, i, left)
			}
		}
		return !found
	})
	return found
}

// readsLive reports whether an expression reads live state: an object
// (a value of a type embedding ObjectMeta) or one of its fields, except
// the primary object's Spec, which is its desired state, and its Status,
// which the controller writes to report, never to correct; directly or
// through the local variables of body it is computed from, or a parameter
// in given (handed live state by the caller).
func (a *analysis) readsLive(info *types.Info, body *ast.BlockStmt, kind *types.Named, e ast.Expr, given, seen map[*types.Var]bool) bool {
	live := false
	ast.Inspect(e, func(n ast.Node) bool {
		if live {
			return false
		}
		switch x := n.(type) {
		case *ast.CallExpr:
			// A getter of the tree's: what it returns.
			if a.returnsLive(info, x, kind) {
				live = true
				return false
			}
		case *ast.FuncLit:
			// A function literal's value is what it returns: called
			// where it stands, or through the variable it is
			// assigned to, it reads what its results read.
			returnsOf(x.Body, func(r *ast.ReturnStmt) {
				for _, res := range r.Results {
					live = live || a.readsLive(info, body, kind, res, given, seen)
				}
			})
			return false
		case *ast.SelectorExpr:
			// The selection nearest the root that is made on an object
			// decides (obj.Spec.Template.Spec is the primary's Spec).
			var first *ast.SelectorExpr
			for e := ast.Expr(x); ; {
				sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
				if !ok {
					break
				}
				if isObjectValue(info.TypeOf(sel.X)) {
					first = sel
				}
				e = sel.X
			}
			if first == nil {
				return true
			}
			if sel := info.Selections[first]; sel != nil && kind != nil {
				if n, ok := deref(info.TypeOf(first.X)).(*types.Named); ok && types.Identical(n, kind) {
					if sel.Kind() == types.FieldVal && first.Sel.Name == specField {
						return false // the primary's desired state
					}
					if sel.Kind() == types.FieldVal && first.Sel.Name == statusField && a.declares(kind) {
						return false // what the controller reports of its own kind, not state it corrects (a built-in kind's status, a Service's load balancer, is)
					}
					if yieldsMap(sel) && !a.newDesiredState(kind, nil).metadataWritten() {
						return false // labels or annotations the tree never writes: set by the user
					}
					if readsIdentity(info, first) || sel.Kind() == types.MethodVal && identityGetters[first.Sel.Name] {
						return false // what names the object, fixed for its life
					}
				}
			}
			live = true
		case *ast.Ident:
			v, ok := info.Uses[x].(*types.Var)
			if !ok || v.IsField() {
				return true
			}
			if isObjectValue(v.Type()) || given[v] {
				live = true
				return false
			}
			if seen[v] {
				return false
			}
			seen[v] = true
			for _, rhs := range assignmentsTo(info, body, v) {
				if a.readsLive(info, body, kind, rhs, given, seen) {
					live = true
				}
			}
		}
		return true
	})
	return live
}

// isObjectValue reports whether t is an API object or a pointer to one: a
// struct embedding ObjectMeta, or a value with an object's metadata
// accessors (client.Object, an unstructured object or a type wrapping one).
func isObjectValue(t types.Type) bool {
	if t == nil {
		return false
	}
	if IsObjectPointer(t) {
		return true
	}
	if tp, ok := types.Unalias(t).(*types.TypeParam); ok {
		// A generic reconciler's object: its constraint makes it one
		// (client.Object's metadata accessors).
		return hasMethods(tp, "GetNamespace", "GetLabels")
	}
	return IsObjectPointer(types.NewPointer(t)) || hasMethods(t, "GetNamespace", "GetLabels")
}

// hasMethods reports whether t has every method named.
func hasMethods(t types.Type, names ...string) bool {
	for _, name := range names {
		if obj, _, _ := types.LookupFieldOrMethod(t, true, nil, name); obj == nil {
			return false
		}
	}
	return true
}

// assignmentsTo lists the expressions body assigns to a local variable
// (the value of the whole right side when one call gives several); none
// when there is no body (a function literal at package level has no
// declaration's body around it).
func assignmentsTo(info *types.Info, body *ast.BlockStmt, v *types.Var) []ast.Expr {
	if body == nil {
		return nil
	}
	var out []ast.Expr
	add := func(lhs []*ast.Ident, rhs []ast.Expr) {
		for i, id := range lhs {
			if info.ObjectOf(id) != v {
				continue
			}
			switch {
			case len(rhs) == len(lhs):
				out = append(out, rhs[i])
			case len(rhs) == 1:
				out = append(out, rhs[0])
			}
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			var ids []*ast.Ident
			for _, l := range n.Lhs {
				id, _ := ast.Unparen(l).(*ast.Ident)
				if id == nil {
					id = &ast.Ident{}
				}
				ids = append(ids, id)
			}
			add(ids, n.Rhs)
		case *ast.ValueSpec:
			add(n.Names, n.Values)
		}
		return true
	})
	return out
}
