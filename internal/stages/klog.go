package stages

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"

	"github.com/ctrlcmp/ctrlcmp/internal/locate"
)

// What the probes log with: klog v2, through a logr.Logger in scope,
// klog.FromContext of a context in scope, or klog's structured functions.
const (
	klogPath    = "k8s.io/klog/v2"
	typeLogger  = "github.com/go-logr/logr.Logger"
	typeContext = "context.Context"
	// typeKMetadata is what klog.KObj takes.
	typeKMetadata = "KMetadata"
	// methodLen is a workqueue's length, logged with each dequeue.
	methodLen = "Len"
)

// logger is how a probe logs at one place.
type logger struct {
	file  string
	klog  string // the name klog is (or will be) imported under
	recv  string // expression of the logger ("" for klog.InfoS)
	scope *types.Scope
	at    token.Pos
	kmeta *types.Interface
	// importAs, when not empty, is the name the file must import klog
	// under for the probe to build.
	importAs string
}

func newLogger(an locate.StageAnchor, at token.Pos) logger {
	lg := logger{file: an.Fset.File(at).Name(), at: at}
	if kp := klogIn(an.Pkg); kp != nil {
		if tn, ok := kp.Scope().Lookup(typeKMetadata).(*types.TypeName); ok {
			lg.kmeta, _ = tn.Type().Underlying().(*types.Interface)
		}
	}
	var needImport bool
	lg.klog, needImport = klogName(an.File, an.Info, an.Pkg)
	if needImport {
		lg.importAs = lg.klog
	}
	lg.scope = an.Pkg.Scope().Innermost(at)
	if v := lg.varOf(func(t types.Type) bool { return typeName(t) == typeLogger }); v != "" {
		lg.recv = v
	} else if v := lg.varOf(func(t types.Type) bool { return typeName(t) == typeContext }); v != "" {
		lg.recv = lg.klog + ".FromContext(" + v + ")"
	}
	return lg
}

// varOf names a variable visible at the probe whose type satisfies ok,
// nearest scope first.
func (lg logger) varOf(ok func(types.Type) bool) string {
	for s := lg.scope; s != nil && s != types.Universe; s = s.Parent() {
		for _, name := range s.Names() {
			v, isVar := s.Lookup(name).(*types.Var)
			if !isVar || name == "_" || !ok(v.Type()) {
				continue
			}
			if _, found := lg.scope.LookupParent(name, lg.at); found != v {
				continue
			}
			return name
		}
	}
	return ""
}

// call is the logging statement with its arguments.
func (lg logger) call(args string) string {
	if lg.recv != "" {
		return lg.recv + ".Info(" + args + ")"
	}
	return lg.klog + ".InfoS(" + args + ")"
}

// implementsKMetadata says klog.KObj takes a value of type t as it is.
func (lg logger) implementsKMetadata(t types.Type) bool {
	return lg.kmeta != nil && types.Implements(t, lg.kmeta)
}

// klogIn finds klog among the packages pkg imports, directly or not.
func klogIn(pkg *types.Package) *types.Package {
	seen := map[*types.Package]bool{}
	var find func(p *types.Package) *types.Package
	find = func(p *types.Package) *types.Package {
		if p == nil || seen[p] {
			return nil
		}
		seen[p] = true
		if p.Path() == klogPath {
			return p
		}
		for _, imp := range p.Imports() {
			if k := find(imp); k != nil {
				return k
			}
		}
		return nil
	}
	return find(pkg)
}

// klogName is the name a file imports klog under, or the name to import it
// under when it does not.
func klogName(file *ast.File, info *types.Info, pkg *types.Package) (string, bool) {
	for _, imp := range file.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == klogPath {
			if imp.Name == nil {
				return "klog", false
			}
			if imp.Name.Name != "_" && imp.Name.Name != "." {
				return imp.Name.Name, false
			}
		}
	}
	taken := map[string]bool{}
	for _, imp := range file.Imports {
		if pn := info.PkgNameOf(imp); pn != nil {
			taken[pn.Name()] = true
		}
	}
	for _, name := range []string{"klog", "klogv2"} {
		if !taken[name] && pkg.Scope().Lookup(name) == nil {
			return name, true
		}
	}
	return "klogv2stage", true
}

// typeName is the qualified name of a named type, pointers removed.
func typeName(t types.Type) string {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	return types.TypeString(types.Unalias(t), nil)
}

// hasMethod reports whether t has a method name with a result.
func hasMethod(t types.Type, name string) bool {
	fn, ok := lookupMethod(t, name)
	return ok && fn.Type().(*types.Signature).Results().Len() > 0
}

func lookupMethod(t types.Type, name string) (*types.Func, bool) {
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, name)
	fn, ok := obj.(*types.Func)
	return fn, ok
}

// paramIdents lists a function type's parameter names.
func paramIdents(ft *ast.FuncType) []*ast.Ident {
	var ids []*ast.Ident
	for _, f := range ft.Params.List {
		ids = append(ids, f.Names...)
	}
	return ids
}

func isErrorType(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

func deref(t types.Type) types.Type {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// qualifier spells package-qualified types as a file does: by the names it
// imports them under, nothing for the file's own package. spelled reports
// afterwards whether every package met was one the file imports.
func qualifier(file *ast.File, info *types.Info, pkg *types.Package) (qualify types.Qualifier, spelled func() bool) {
	names := map[string]string{}
	for _, imp := range file.Imports {
		if pn := info.PkgNameOf(imp); pn != nil && pn.Name() != "_" && pn.Name() != "." {
			names[pn.Imported().Path()] = pn.Name()
		}
	}
	ok := true
	qualify = func(p *types.Package) string {
		if p == pkg {
			return ""
		}
		name, found := names[p.Path()]
		if !found {
			ok = false
		}
		return name
	}
	return qualify, func() bool { return ok }
}
