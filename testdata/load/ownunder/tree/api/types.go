// Package api is the tree's own API module, which a dependency imports
// too (a local replace, as operators whose runtime library shares their
// API types do).
package api

// ConditionType names a condition.
type ConditionType string

// Ready is the condition a widget carries when it is ready.
const Ready ConditionType = "Ready"

// Widget is the tree's kind.
type Widget struct {
	Conditions []ConditionType
}

// GetCondition returns the widget's condition of type t.
func (w *Widget) GetCondition(t ConditionType) ConditionType {
	for _, c := range w.Conditions {
		if c == t {
			return c
		}
	}
	return ""
}
