package locate

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrlcmp/ctrlcmp/internal/cite"
)

// unreadEnd says, when the entry's success path ends by handing back the
// results of a function that could not be analysed (type errors), that
// the main work's failure is there, among returns that were not read: the
// failure returns seen before that end are the special cases', not the
// work's. "" when the success path ends in analysed code, or has no end.
func (a *analysis) unreadEnd(entry *ssa.Function, kind *types.Named) string {
	end := a.successPathEnd(entry, kind)
	if end == nil {
		return ""
	}
	ce, ok := ast.Unparen(a.handedBack(end.in, a.successEnd(end.in, kind))).(*ast.CallExpr)
	if !ok {
		return ""
	}
	c := a.makeCall(a.infoAt(ce.Pos()), ce, end.in)
	if c.fn == nil || !a.prog.Unanalysed[c.fn.Origin()] {
		return ""
	}
	s := a.site(end.pos)
	return fmt.Sprintf("not settled: the success path ends at %s:%d in what %s hands back, which could not be analysed (type errors; see the warnings): the main work's failure and the success return are among its returns, which were not read", s.File, s.Line, cite.ObjectName(c.fn))
}
