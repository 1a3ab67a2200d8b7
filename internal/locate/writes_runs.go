package locate

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// runCall is a call of a library function that runs a function of the
// tree's handed to it before it returns (retry.RetryOnConflict(backoff,
// func() error {…})): the handed function runs whenever the call does.
type runCall struct {
	site ssa.CallInstruction
	fn   *ssa.Function
}

// runCalls lists f's calls of library functions that run a function they
// are handed (the knowledge table's RoleRunsFunc), with the function: a
// closure made there, or a function of the tree named as a value.
func (a *analysis) runCalls(f *ssa.Function) []runCall {
	var out []runCall
	for _, b := range f.Blocks {
		for _, instr := range b.Instrs {
			ci, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			callee := ci.Common().StaticCallee()
			if callee == nil {
				continue
			}
			obj, ok := callee.Object().(*types.Func)
			if !ok {
				continue
			}
			fact := knowledge[funcKey(obj)]
			if fact.Role != RoleRunsFunc || fact.Arg >= len(ci.Common().Args) {
				continue
			}
			var fn *ssa.Function
			switch v := ci.Common().Args[fact.Arg].(type) {
			case *ssa.MakeClosure:
				fn, _ = v.Fn.(*ssa.Function)
			case *ssa.Function:
				fn = v
			}
			if fn != nil && (a.prog.Own[fn] || fn.Parent() != nil && a.prog.Own[fn.Parent()]) {
				out = append(out, runCall{ci, fn})
			}
		}
	}
	return out
}
