package stages

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ast/astutil"

	"github.com/ctrlcmp/ctrlcmp/internal/locate"
)

// Instrumentation is what the patch adds to a controller: one probe per
// stage site still to be logged, and why a site could not be.
type Instrumentation struct {
	Probes []Probe
	// Skipped says, for each stage site that gets no probe, why.
	Skipped []string
}

// Probe is one STAGE log statement to insert in a source file.
type Probe struct {
	Stage string // watch, enqueue, dequeue, read, write
	// File is the absolute path of the file; Offset the byte offset of the
	// start of the line the statement is inserted before.
	File   string
	Offset int
	// KVs are the line's key/value pairs, in order.
	KVs []KV
	// Guard, when not empty, is the condition the statement is wrapped in
	// (the values it logs exist only when it holds).
	Guard string
	// End, when not zero, is the end offset of the handler expression the
	// probe replaces: Code wraps that handler in a function that logs,
	// then calls it.
	End  int
	wrap *wrapping
	log  logger
}

// wrapping is a named handler function wrapped at its registration.
type wrapping struct {
	handler string   // the handler expression, as written
	params  []string // its parameter types, as the file spells them
}

// KV is one key/value pair of a STAGE line: Expr is the Go expression
// logged, or, when Fixed, Value is the string logged. A KV with a Guard is
// logged only when the guard holds (the line without it is logged
// otherwise).
type KV struct {
	Key   string
	Expr  string
	Value string
	Fixed bool
	Guard string
}

func fixed(key, value string) KV { return KV{Key: key, Value: value, Fixed: true} }
func expr(key, e string) KV      { return KV{Key: key, Expr: e} }

// wrapArg names the wrapper's i-th parameter.
func wrapArg(i int) string { return fmt.Sprintf("stageArg%d", i) }

// Statement is the probe's logging call with all its values, as it
// appears in the patched source.
func (p Probe) Statement() string { return p.call(true) }

// call is the logging call, with or without the guarded values.
func (p Probe) call(guarded bool) string {
	args := []string{strconv.Quote(tag(p.Stage))}
	for _, kv := range p.KVs {
		if kv.Guard != "" && !guarded {
			continue
		}
		v := kv.Expr
		if kv.Fixed {
			v = strconv.Quote(kv.Value)
		}
		args = append(args, strconv.Quote(kv.Key), v)
	}
	return p.log.call(strings.Join(args, ", "))
}

// Code is the probe's statement, without indentation; for a wrapped
// handler, the expression that replaces it.
func (p Probe) Code() string {
	code := p.Statement()
	for _, kv := range p.KVs {
		if kv.Guard != "" {
			code = "if " + kv.Guard + " {\n" + code + "\n} else {\n" + p.call(false) + "\n}"
			break
		}
	}
	if p.Guard != "" {
		code = "if " + p.Guard + " {\n" + code + "\n}"
	}
	if w := p.wrap; w != nil {
		var names, decl []string
		for i, t := range w.params {
			names = append(names, wrapArg(i))
			decl = append(decl, wrapArg(i)+" "+t)
		}
		sig := "func(" + strings.Join(w.params, ", ") + ")"
		code = "func(stageHandler " + sig + ") " + sig + " {\nreturn func(" + strings.Join(decl, ", ") + ") {\n" +
			code + "\nstageHandler(" + strings.Join(names, ", ") + ")\n}\n}(" + w.handler + ")"
	}
	return code
}

// Instrument writes the probes for a controller's stage anchors, leaving
// out those already in the source. dir is the module's directory: skipped
// sites are cited relative to it.
func Instrument(dir string, anchors []locate.StageAnchor) (*Instrumentation, error) {
	ins := &Instrumentation{}
	if len(anchors) == 0 {
		return ins, nil
	}
	var pkg *types.Package
	for _, an := range anchors {
		if pkg == nil {
			pkg = an.Pkg
		}
	}
	if klogIn(pkg) == nil {
		return nil, fmt.Errorf("%s: cannot add the stage lines: the module does not depend on %s, which the probes log with; run `go get %s` in it and patch again", dir, klogPath, klogPath)
	}
	pr := prober{dir: dir, ins: ins}
	for _, an := range anchors {
		switch an.Stage {
		case locate.StageWatch:
			pr.watch(an)
		case locate.StageEnqueue:
			pr.after(an, func(logger, *ast.AssignStmt) Probe {
				var kvs []KV
				if an.Key != nil && pure(an.Key) {
					kvs = append(kvs, expr(keyKey, types.ExprString(an.Key)))
				}
				return Probe{KVs: kvs}
			})
		case locate.StageDequeue:
			pr.after(an, func(_ logger, as *ast.AssignStmt) Probe {
				var kvs []KV
				if as != nil && len(as.Lhs) > 0 {
					if id, ok := as.Lhs[0].(*ast.Ident); ok && id.Name != "_" {
						kvs = append(kvs, expr(keyKey, id.Name))
					}
				}
				if sel, ok := ast.Unparen(an.Call.Fun).(*ast.SelectorExpr); ok && pure(sel.X) && hasMethod(an.Info.TypeOf(sel.X), methodLen) {
					kvs = append(kvs, expr(keyQueueLen, types.ExprString(sel.X)+"."+methodLen+"()"))
				}
				return Probe{KVs: kvs}
			})
		case locate.StageRead:
			pr.after(an, func(lg logger, as *ast.AssignStmt) Probe {
				if as != nil && len(as.Lhs) > 0 && len(as.Rhs) == 1 {
					if id, ok := as.Lhs[0].(*ast.Ident); ok && id.Name != "_" && locate.IsObjectPointer(an.Info.TypeOf(id)) {
						return Probe{Guard: id.Name + " != nil", KVs: []KV{
							expr(keyObject, lg.klog+".KObj("+id.Name+")"),
							expr(keyResourceVersion, id.Name+".ResourceVersion")}}
					}
				}
				return Probe{}
			})
		case locate.StageWrite:
			pr.after(an, func(lg logger, as *ast.AssignStmt) Probe {
				kvs := []KV{fixed(keyVerb, an.Verb), fixed(keyTarget, an.Target)}
				primary := func(t types.Type) bool {
					n, ok := deref(t).(*types.Named)
					return ok && an.Kind != nil && types.Identical(n, an.Kind) && locate.IsObjectPointer(t)
				}
				if v := lg.varOf(primary); v != "" {
					kvs = append(kvs, expr(keyObject, lg.klog+".KObj("+v+")"))
				}
				if an.Unwatched {
					kvs = append(kvs, fixed(keyReenters, "false"))
				}
				if as != nil {
					for i, l := range as.Lhs {
						id, ok := l.(*ast.Ident)
						switch {
						case !ok || id.Name == "_":
						case isErrorType(an.Info.TypeOf(id)):
							kvs = append(kvs, expr(keyErr, id.Name))
						case i == 0 && primary(an.Info.TypeOf(id)):
							// The object the write returns: its
							// resourceVersion shows a no-op write.
							kvs = append(kvs, KV{Key: keyResourceVersion, Expr: id.Name + ".ResourceVersion", Guard: id.Name + " != nil"})
						}
					}
				}
				return Probe{KVs: kvs}
			})
		case locate.AnchorRequeue:
			pr.after(an, func(logger, *ast.AssignStmt) Probe {
				var kvs []KV
				if an.Key != nil && pure(an.Key) {
					kvs = append(kvs, expr(keyKey, types.ExprString(an.Key)))
				}
				kvs = append(kvs, fixed(keyRequeue, an.Requeue))
				if an.Delay != nil && pure(an.Delay) {
					kvs = append(kvs, expr(keyAfter, types.ExprString(an.Delay)))
				}
				return Probe{KVs: kvs}
			})
		}
	}
	sort.SliceStable(ins.Probes, func(i, j int) bool {
		if ins.Probes[i].File != ins.Probes[j].File {
			return ins.Probes[i].File < ins.Probes[j].File
		}
		return ins.Probes[i].Offset < ins.Probes[j].Offset
	})
	return ins, nil
}

// prober places probes at anchors.
type prober struct {
	dir string
	ins *Instrumentation
}

// skip records why a site gets no probe.
func (pr prober) skip(an locate.StageAnchor, pos token.Pos, why string) {
	p := an.Fset.PositionFor(pos, false)
	file := p.Filename
	if rel, err := filepath.Rel(pr.dir, file); err == nil && !strings.HasPrefix(rel, "..") {
		file = filepath.ToSlash(rel)
	}
	pr.ins.Skipped = append(pr.ins.Skipped, fmt.Sprintf("%s:%d: %s; add the %s line by hand", file, p.Line, why, tag(logStage[an.Stage])))
}

// watch logs a handler's event: at the top of a literal handler, or, for a
// named function (which other code may call too), in a wrapper around it at
// its registration. The line names the informer, the event and the object.
func (pr prober) watch(an locate.StageAnchor) {
	if an.File == nil {
		return
	}
	kvs := []KV{fixed(keyHandler, an.HandlerName)}
	if an.Informer != "" {
		kvs = append(kvs, fixed(keyInformer, an.Informer))
	}
	kvs = append(kvs, fixed(keyEvent, an.Event))
	// The object is the handler's first parameter; an update's the second,
	// the new object.
	object := 0
	if an.Event == eventUpdate {
		object = 1
	}
	b := an.HandlerBody
	fset := an.Fset
	if b == nil || len(b.List) > 0 && fset.PositionFor(b.List[0].Pos(), false).Line == fset.PositionFor(b.Lbrace, false).Line {
		// A named function, or a literal on one line: wrap it at its
		// registration.
		if an.HandlerField != nil {
			pr.wrapWatch(an, an.HandlerField, kvs, object)
		}
		return
	}
	if len(b.List) > 0 && hasTag(b.List[0], stageWatch) {
		return
	}
	lg := newLogger(an, b.Pos()+1)
	p := Probe{KVs: kvs}
	if params := paramIdents(an.HandlerType); object < len(params) && params[object].Name != "_" {
		param := params[object]
		if v, ok := an.Info.Defs[param].(*types.Var); ok {
			p.objectOf(lg, param.Name, v.Type())
		}
	}
	pr.add(an, p, lineAfter(fset, b.Lbrace), lg)
}

// objectOf adds the object key for a handler's parameter: klog.KObj of it,
// through a type assertion when its type is an interface.
func (p *Probe) objectOf(lg logger, param string, t types.Type) {
	if lg.implementsKMetadata(t) {
		p.KVs = append(p.KVs, expr(keyObject, lg.klog+".KObj("+param+")"))
		return
	}
	p.Guard = fmt.Sprintf("m, ok := %s.(%s.KMetadata); ok", param, lg.klog)
	p.KVs = append(p.KVs, expr(keyObject, lg.klog+".KObj(m)"))
}

// wrapWatch wraps a named handler at its registration field.
func (pr prober) wrapWatch(an locate.StageAnchor, f *ast.KeyValueExpr, kvs []KV, object int) {
	if hasTag(f.Value, stageWatch) {
		return
	}
	sig, ok := an.Info.TypeOf(f.Value).(*types.Signature)
	if !ok || sig.Variadic() || sig.Results().Len() > 0 {
		pr.skip(an, f.Pos(), "the handler is not a plain function value")
		return
	}
	lg := newLogger(an, f.Value.Pos())
	fset := an.Fset
	start, end := fset.PositionFor(f.Value.Pos(), false).Offset, fset.PositionFor(f.Value.End(), false).Offset
	src, err := os.ReadFile(lg.file)
	if err != nil || end > len(src) {
		pr.skip(an, f.Pos(), "its file cannot be read back")
		return
	}
	qualify, spelled := qualifier(an.File, an.Info, an.Pkg)
	// The handler as written, comments and all.
	w := &wrapping{handler: string(src[start:end])}
	for i := 0; i < sig.Params().Len(); i++ {
		w.params = append(w.params, types.TypeString(sig.Params().At(i).Type(), qualify))
	}
	if !spelled() {
		pr.skip(an, f.Pos(), "the handler's parameter types come from a package the file does not import")
		return
	}
	p := Probe{KVs: kvs, wrap: w}
	if object < sig.Params().Len() {
		p.objectOf(lg, wrapArg(object), sig.Params().At(object).Type())
	}
	p.Stage, p.File, p.Offset, p.End, p.log = stageWatch, lg.file, start, end, lg
	pr.ins.Probes = append(pr.ins.Probes, p)
}

// after inserts a probe after the statement holding the anchor's call
// (before it, when the statement leaves the function: a return, a defer, a
// go). make fills the probe's values; it receives the statement when it is
// the assignment of the call's results.
func (pr prober) after(an locate.StageAnchor, make func(logger, *ast.AssignStmt) Probe) {
	if an.File == nil {
		return
	}
	stage := logStage[an.Stage]
	path, _ := astutil.PathEnclosingInterval(an.File, an.Call.Pos(), an.Call.End())
	var stmt ast.Stmt
	var list []ast.Stmt
	var open, close token.Pos
	for i, n := range path {
		s, ok := n.(ast.Stmt)
		if !ok || i+1 >= len(path) {
			continue
		}
		switch p := path[i+1].(type) {
		case *ast.BlockStmt:
			stmt, list, open, close = s, p.List, p.Lbrace, p.Rbrace
		case *ast.CaseClause:
			stmt, list, open = s, p.Body, p.Colon
		case *ast.CommClause:
			stmt, list, open = s, p.Body, p.Colon
		}
		if stmt != nil {
			break
		}
	}
	if stmt == nil {
		return
	}
	fset := an.Fset
	idx := -1
	for i, s := range list {
		if s == stmt {
			idx = i
		}
	}
	before := false
	switch stmt.(type) {
	case *ast.ReturnStmt, *ast.DeferStmt, *ast.GoStmt, *ast.BranchStmt:
		before = true
	}
	var offset int
	var at token.Pos
	if before {
		if idx > 0 && hasTag(list[idx-1], stage) {
			return
		}
		if fset.PositionFor(open, false).Line == fset.PositionFor(stmt.Pos(), false).Line {
			pr.skip(an, stmt.Pos(), "the statement shares its line with the block's start")
			return
		}
		offset, at = fset.PositionFor(stmt.Pos(), false).Offset-fset.PositionFor(stmt.Pos(), false).Column+1, stmt.Pos()
	} else {
		if idx+1 < len(list) && hasTag(list[idx+1], stage) {
			return
		}
		if close.IsValid() && fset.PositionFor(close, false).Line == fset.PositionFor(stmt.End(), false).Line {
			pr.skip(an, stmt.Pos(), "the statement shares its line with the block's end")
			return
		}
		offset, at = lineAfter(fset, stmt.End()-1), stmt.End()
	}
	lg := newLogger(an, at)
	as, _ := stmt.(*ast.AssignStmt)
	if as != nil && !(len(as.Rhs) == 1 && ast.Unparen(as.Rhs[0]) == an.Call) || before {
		as = nil
	}
	pr.add(an, make(lg, as), offset, lg)
}

// add completes a probe with its stage, place and logger.
func (pr prober) add(an locate.StageAnchor, p Probe, offset int, lg logger) {
	p.Stage, p.File, p.Offset, p.log = logStage[an.Stage], lg.file, offset, lg
	pr.ins.Probes = append(pr.ins.Probes, p)
}

// lineAfter is the offset of the start of the line after the one holding pos.
func lineAfter(fset *token.FileSet, pos token.Pos) int {
	tf := fset.File(pos)
	line := tf.PositionFor(pos, false).Line
	if line >= tf.LineCount() {
		return tf.Size()
	}
	return tf.Offset(tf.LineStart(line + 1))
}

// pure reports whether evaluating e twice is harmless: it calls nothing.
func pure(e ast.Expr) bool {
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		if _, call := n.(*ast.CallExpr); call {
			ok = false
		}
		return ok
	})
	return ok
}

// hasTag reports whether a statement already logs a stage's tag.
func hasTag(n ast.Node, stage string) bool {
	want := tag(stage)
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			if s, err := strconv.Unquote(lit.Value); err == nil && s == want {
				found = true
			}
		}
		return !found
	})
	return found
}
