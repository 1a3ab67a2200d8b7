package locate

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"sort"

	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"
	"github.com/ctrlcmp/ctrlcmp/internal/cite"
	"github.com/ctrlcmp/ctrlcmp/internal/load"
)

// analysis holds the indexes every locator shares for one tree.
type analysis struct {
	// shapes are the result types of the tree's own that a client-go
	// worker reads after its sync, by typeKey (syncResultDelay).
	shapes map[string]resultShape
	tree   *load.Tree
	prog   *callgraph.Program
	cite   *cite.Citer
	files  map[string]fileInfo // own file name -> syntax and types
	// decls maps an own function object to its declaration.
	decls map[*types.Func]*ast.FuncDecl
	// bySyntax maps a FuncDecl or FuncLit to its SSA function.
	bySyntax map[ast.Node]*ssa.Function
	// callees maps a call's position to the own functions the call graph
	// says it may call (dynamic calls included).
	callees map[token.Pos][]*ssa.Function
	calls   map[*ssa.Function][]call
	// funcDecls and declCalls index the whole tree's declarations and their
	// calls (closures included), built on first use.
	funcDecls []*ast.FuncDecl
	declCalls map[*ast.FuncDecl][]call
	// crds are the tree's CustomResourceDefinitions, read on first use.
	crds *[]crdDoc
	// warnings are problems met while locating (a CRD that is not YAML).
	warnings []string
	// bodies are the own function bodies the flows read, deps the
	// dependency packages read in full on demand (nil: unreadable), and
	// condFlows the condition summaries by primary type (bodies.go,
	// condflow.go).
	bodies map[*types.Func]*flowBody
	// varLits are the bodies of function literals package-level
	// variables hold (bodies.go).
	varLits map[*ssa.Function]*flowBody
	deps    map[string]*depPackage
	// depFields are the worker fields of each dependency package read for
	// them (find_depworkers.go).
	depFields map[string]depWorkerFields
	condFlows map[*types.Named]*condFlow
	// readHelpers are the own functions that return what they read by a
	// key they are handed: the index of that parameter, or -1
	// (readhelper.go).
	readHelpers *readHelperState
	// cacheReads are the own functions that read an object from a store
	// of the tree's own by a key they are handed (readhelper.go).
	cacheReads map[*types.Func]cacheReadAnswer
	// typedReads are the own functions that return what a typed read
	// made by a key they are handed read: the index of that parameter
	// (or -1) and the type read (find_reading_worker.go).
	typedReads map[*types.Func]typedRead
	// libWrites are the writes a library's functions make inside, by
	// function (writes_library.go).
	libWrites map[*types.Func][]libWrite
	// lifted are the registration roles of the tree's own functions that
	// hand a parameter on to the library's registration (find_lifted.go).
	lifted map[*types.Func][]Fact
	// misses are the registrations and workers that gave no controller
	// (find.go).
	misses []miss
	// entryRecvs are the receiver types of the found controllers' entries
	// (reachOf).
	entryRecvs []types.Type
	// entries are the found controllers' entries (reachOf).
	entries []*ssa.Function
	// dynamic are the functions the engine settled dynamic calls to, by
	// their Lparen (nil: not settled); settling says a query for one is
	// under way (flow_dynamic.go).
	dynamic  map[token.Pos]*types.Func
	settling bool
	// onceLoops are, by function, its range loops whose body runs at
	// least once (writes.go).
	onceLoops map[*ssa.Function]map[*ssa.BasicBlock]int
	// rangeLoops are, by function, all of its range loops (writes.go).
	rangeLoops map[*ssa.Function]map[*ssa.BasicBlock]int
	// writtenFields are, by kind, the fields of objects of that kind the
	// tree's own code writes anywhere (writes_objecttests.go).
	writtenFields map[*types.Named]map[*types.Var]bool
	// otherWritten are, by a controller's reached functions and by type,
	// the fields of other objects those functions write (writes_open.go).
	otherWritten map[*callgraph.Reach]map[*types.Named]map[*types.Var]bool
	// setters are, by struct field, the places that assign it
	// (flow_handed.go).
	setters map[*types.Var][]token.Pos
	// madeQueues are, by struct field, whether the tree fills it only
	// with queues it makes (requeue_reenqueue.go).
	madeQueues map[*types.Var]bool
	// referenced are the functions the tree's code calls or takes as a
	// value (flow_applied.go), built on first use.
	referenced map[*types.Func]bool
	// fixedVars are the package-level variables nothing writes after
	// their constant initialiser, with it (fixedvars.go).
	fixedVars map[*types.Var]fixedInit
	// initVars are the package-level variables nothing writes after an
	// initialiser that is not a constant (initOf), indexed with fixedVars.
	initVars map[*types.Var]varInit
	// flagVars are the package-level variables a command-line flag sets
	// and nothing else writes (flagvars.go).
	flagVars map[*types.Var]flagVar
	// liveGetters are the own functions that hand back live state, by
	// the primary kind they were read for (drift_values.go).
	liveGetters map[liveGetter]bool
}

// warn records a problem met while locating, once.
func (a *analysis) warn(msg string) {
	if !slices.Contains(a.warnings, msg) {
		a.warnings = append(a.warnings, msg)
	}
}

type fileInfo struct {
	file *ast.File
	info *types.Info
	pkg  *types.Package
}

// call is one call expression in an own function.
type call struct {
	expr *ast.CallExpr
	// fn is the static or interface callee; nil for a call of a func value.
	fn   *types.Func
	fact Fact
	// known says fact comes from the knowledge table.
	known bool
	// own are the tree's functions the call may run.
	own []*ssa.Function
	in  *ssa.Function
	// delay is the delay of a workqueue add after one (AddAfter's
	// argument, or the After of a priority queue's options).
	delay ast.Expr
}

func newAnalysis(tree *load.Tree, prog *callgraph.Program, c *cite.Citer) *analysis {
	a := &analysis{tree: tree, prog: prog, cite: c, files: map[string]fileInfo{},
		decls: map[*types.Func]*ast.FuncDecl{}, bySyntax: map[ast.Node]*ssa.Function{},
		callees: map[token.Pos][]*ssa.Function{}, dynamic: map[token.Pos]*types.Func{}, calls: map[*ssa.Function][]call{},
		declCalls: map[*ast.FuncDecl][]call{}, bodies: map[*types.Func]*flowBody{}, varLits: map[*ssa.Function]*flowBody{},
		deps: map[string]*depPackage{}, depFields: map[string]depWorkerFields{}, condFlows: map[*types.Named]*condFlow{}, setters: map[*types.Var][]token.Pos{}, madeQueues: map[*types.Var]bool{}, liveGetters: map[liveGetter]bool{},
		readHelpers: newReadHelperState(), cacheReads: map[*types.Func]cacheReadAnswer{},
		typedReads: map[*types.Func]typedRead{}, libWrites: map[*types.Func][]libWrite{}}
	for _, p := range tree.Own {
		for _, f := range p.Syntax {
			a.files[tree.Fset.File(f.Pos()).Name()] = fileInfo{f, p.TypesInfo, p.Types}
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok {
					if obj, ok := p.TypesInfo.Defs[fd.Name].(*types.Func); ok {
						a.decls[obj] = fd
					}
				}
			}
		}
	}
	for f := range prog.Own {
		// The instances of a generic function share its syntax: the
		// syntax names the generic function itself.
		if syn := f.Syntax(); syn != nil && (a.bySyntax[syn] == nil || f.Origin() == nil) {
			a.bySyntax[syn] = f
		}
	}
	for f := range prog.Own {
		for _, e := range prog.CallsFrom(f) {
			if e.Site == nil || !prog.Own[e.Callee.Func] {
				continue
			}
			pos := e.Site.Common().Pos()
			if !slices.Contains(a.callees[pos], e.Callee.Func) {
				a.callees[pos] = append(a.callees[pos], e.Callee.Func)
			}
		}
	}
	for pos := range a.callees {
		fs := a.callees[pos]
		// Instances of one generic function share its position: their
		// names (type arguments included) order them.
		sort.Slice(fs, func(i, j int) bool {
			if fs[i].Pos() != fs[j].Pos() {
				return fs[i].Pos() < fs[j].Pos()
			}
			return fs[i].String() < fs[j].String()
		})
	}
	return a
}

// fileAt returns the own file holding pos.
func (a *analysis) fileAt(pos token.Pos) (fileInfo, bool) {
	tf := a.tree.Fset.File(pos)
	if tf == nil {
		return fileInfo{}, false
	}
	fi, ok := a.files[tf.Name()]
	return fi, ok
}

// generatedAt reports whether pos is in an own file marked generated
// (// Code generated … DO NOT EDIT.).
func (a *analysis) generatedAt(pos token.Pos) bool {
	fi, ok := a.fileAt(pos)
	return ok && ast.IsGenerated(fi.file)
}

func (a *analysis) infoAt(pos token.Pos) *types.Info {
	fi, _ := a.fileAt(pos)
	return fi.info
}

// path returns the syntax path from the node spanning [pos, end) to the file.
func (a *analysis) path(pos, end token.Pos) []ast.Node {
	fi, ok := a.fileAt(pos)
	if !ok {
		return nil
	}
	p, _ := astutil.PathEnclosingInterval(fi.file, pos, end)
	return p
}

// body returns the body of an SSA function's syntax.
func body(f *ssa.Function) *ast.BlockStmt {
	switch s := f.Syntax().(type) {
	case *ast.FuncDecl:
		return s.Body
	case *ast.FuncLit:
		return s.Body
	}
	return nil
}

// callsIn lists the calls of an own function in source order, without those
// of the closures it holds (they are functions of their own).
func (a *analysis) callsIn(f *ssa.Function) []call {
	if cs, ok := a.calls[f]; ok {
		return cs
	}
	var cs []call
	if b := body(f); b != nil {
		info := a.infoAt(b.Pos())
		ast.Inspect(b, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.CallExpr:
				cs = append(cs, a.makeCall(info, n, f))
			}
			return true
		})
	}
	a.calls[f] = cs
	return cs
}

func (a *analysis) makeCall(info *types.Info, e *ast.CallExpr, in *ssa.Function) call {
	c := call{expr: e, in: in, own: a.callees[e.Lparen]}
	if info == nil {
		return c
	}
	callee := typeutil.Callee(info, &ast.CallExpr{Fun: a.passedFun(info, e.Fun)})
	if v, ok := callee.(*types.Var); ok {
		// A library's variable holding another of its functions (the
		// aliases a package re-exports), called by its name or
		// through a generic identity: the function, when the
		// knowledge table names it an apply (the answers read it; the
		// rows' own resolution of aliases is theirs).
		if fn := a.aliasedFunc(v); fn != nil && knowledge[funcKey(fn)].Role == RoleApply {
			callee = fn
		}
	}
	fn, _ := callee.(*types.Func)
	if t := a.target(info, e.Fun, 0); t.fn != nil {
		// Through a function handing back the func value it is given,
		// or an interface the receiver is converted to at the call.
		fn = t.fn
	}
	if fn == nil || isInterfaceMethod(fn) {
		// A dynamic call the value-flow engine settles runs that function.
		if held := a.dynamicCallee(info, e, fn); held != nil {
			fn = held
		}
	}
	if fn != nil {
		c.fn = fn
		c.fact, c.known = knowledge[funcKey(fn)]
		if !c.known && keepsQueueProtocol(fn) {
			c.fact, c.known = protocolQueueGet, true
		}
		switch {
		case c.known && c.fact.Role == RoleQueueAddAfter:
			c.delay = c.arg(c.fact.Arg)
		case c.known && c.fact.Role == RoleQueueAddWithOpts:
			c.fact.Role, c.delay = addByOptions(info, c.arg(c.fact.Arg))
		}
		if obj := fn.Origin(); a.decls[obj] != nil && len(c.own) == 0 {
			if sf := a.prog.Func(obj); sf != nil && a.prog.Own[sf] {
				c.own = []*ssa.Function{sf}
			}
		}
	}
	return c
}

// arg returns argument i of a call, or nil.
func (c call) arg(i int) ast.Expr {
	if i < 0 || i >= len(c.expr.Args) {
		return nil
	}
	return c.expr.Args[i]
}

// recv returns the receiver expression of a method call (x of x.M(…)), or
// nil.
func (c call) recv() ast.Expr {
	if sel, ok := ast.Unparen(c.expr.Fun).(*ast.SelectorExpr); ok {
		return sel.X
	}
	return nil
}

// constOf resolves an expression naming a constant.
func constOf(info *types.Info, e ast.Expr) *types.Const {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		c, _ := info.Uses[x].(*types.Const)
		return c
	case *ast.SelectorExpr:
		c, _ := info.Uses[x.Sel].(*types.Const)
		return c
	}
	return nil
}

// fieldOf resolves a selector naming a struct field to its qualified name
// (pkg.T.Field, T being the struct that declares it).
func fieldOf(info *types.Info, e ast.Expr) string {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	s := info.Selections[sel]
	if s == nil || s.Kind() != types.FieldVal {
		return ""
	}
	v := s.Obj().(*types.Var)
	// Walk the embedding path to the struct that declares the field.
	t := s.Recv()
	idx := s.Index()
	for _, i := range idx[:len(idx)-1] {
		st, ok := deref(t).Underlying().(*types.Struct)
		if !ok {
			return ""
		}
		t = st.Field(i).Type()
	}
	return fieldKey(v, t)
}

// deref is the type t points to, or t; an alias (type Gateway =
// gatewayv1.Gateway) is read as the type it names, on either side.
func deref(t types.Type) types.Type {
	t = types.Unalias(t)
	if p, ok := t.(*types.Pointer); ok {
		return types.Unalias(p.Elem())
	}
	return t
}

// site cites pos, with the symbol that encloses it.
func (a *analysis) site(pos token.Pos) Site {
	return Site{Site: a.cite.At(pos, "")}
}

// funcSite cites the func keyword of an own function.
func (a *analysis) funcSite(f *ssa.Function) Site {
	s := Site{Site: a.cite.At(f.Syntax().Pos(), "")}
	if fd, ok := f.Syntax().(*ast.FuncDecl); ok {
		s.Site = a.cite.At(fd.Type.Func, cite.FuncName(fd))
	}
	return s
}

// objSite cites the declaration of an object (a constant, a field), in the
// tree or in a dependency.
func (a *analysis) objSite(obj types.Object) Site {
	s := Site{Site: a.cite.At(obj.Pos(), "")}
	if _, own := a.fileAt(obj.Pos()); !own {
		s.Func = ""
	}
	return s
}

// sortSites orders sites by file and line.
func sortSites(ss []Site) {
	sort.SliceStable(ss, func(i, j int) bool {
		if ss[i].File != ss[j].File {
			return ss[i].File < ss[j].File
		}
		return ss[i].Line < ss[j].Line
	})
}

// keyedFields calls visit with each keyed element of a composite literal
// and the struct field its key names.
func keyedFields(info *types.Info, lit *ast.CompositeLit, visit func(field *types.Var, kv *ast.KeyValueExpr)) {
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		id, ok := kv.Key.(*ast.Ident)
		if !ok {
			continue
		}
		if v, ok := info.Uses[id].(*types.Var); ok && v.IsField() {
			visit(v, kv)
		}
	}
}
