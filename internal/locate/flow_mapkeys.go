package locate

import (
	"go/ast"
	"go/types"
)

// keysHanded is what the keys of local map v hold as stored by the
// functions v is handed to (a map is shared, not copied: m.Add(k, …) with
// a method of the map's type, or fill(m) storing m[k] = …): each
// callee's stores into its parameter, and what it hands on, its own
// parameters replaced by the call's arguments. A call whose body is not
// read (and that the knowledge table does not know) is where the trail
// ends.
func (q *query) keysHanded(b *flowBody, v *types.Var, path []string, depth int) []flowVal {
	if len(path) == 0 || path[0] != keyStep || !isMap(v.Type()) {
		return nil
	}
	var out []flowVal
	for _, h := range handings(b, v, true) {
		if id, ok := ast.Unparen(h.call.Fun).(*ast.Ident); ok {
			if _, builtin := b.info.Uses[id].(*types.Builtin); builtin {
				continue // len, delete, clear: none adds a key
			}
		}
		callees := q.fl.callees(b, h.call)
		if len(callees) == 0 && !q.fl.a.makeCall(b.info, h.call, nil).known {
			// Handed to a body that is not read: it may store keys too.
			out = append(out, flowVal{b: b, e: h.call, param: -1, path: path, end: h.call.Lparen, why: "the map is handed to a call that is not followed"})
			continue
		}
		for _, cb := range callees {
			args := q.fl.a.callArgs(b.info, h.call, cb)
			i := h.arg
			if cb.lit == nil && cb.decl.Recv != nil {
				i++
			}
			if i < 0 || i >= len(cb.params) || i >= len(args) || cb.params[i] == nil {
				continue
			}
			for _, kv := range q.keysStoredIn(cb, cb.params[i], path, depth+1) {
				if kv.param < 0 || kv.b != cb {
					out = append(out, kv)
					continue
				}
				if kv.param >= len(args) {
					out = append(out, flowVal{b: b, e: h.call, param: -1, end: h.call.Lparen, why: "a parameter the call does not line up"})
					continue
				}
				out = append(out, q.values(b, args[kv.param], kv.path, depth+1)...)
			}
		}
	}
	return out
}

// keysStoredIn is what the keys of map parameter p hold as the body
// stores them (p[k] = …) and as the functions it hands p to do.
func (q *query) keysStoredIn(b *flowBody, p *types.Var, path []string, depth int) []flowVal {
	q.steps++
	if depth > maxFlowDepth || q.steps > maxFlowSteps {
		return []flowVal{{b: b, param: -1, path: path, end: b.decl.Pos(), why: "followed too far"}}
	}
	var out []flowVal
	for _, st := range b.local().stores[p] {
		if len(st.path) == 1 && st.path[0] == keyStep {
			out = append(out, q.values(b, st.value, path[1:], depth+1)...)
		}
	}
	return append(out, q.keysHanded(b, p, path, depth)...)
}
