// Package lib is a dependency of the tree that imports the tree's own API
// module.
package lib

import "example.com/ownunder/api"

// Conditioned is an object holding conditions of the tree's API type.
type Conditioned interface {
	GetCondition(api.ConditionType) api.ConditionType
}

// IsReady reports whether o holds the Ready condition.
func IsReady(o Conditioned) bool { return o.GetCondition(api.Ready) == api.Ready }
