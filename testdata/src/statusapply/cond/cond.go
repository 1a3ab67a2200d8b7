// Package cond merges conditions into a list.
package cond

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	v1 "example.com/fixtures/statusapply/api/v1"
)

// Merge hands back a new list with each new condition set in it, leaving
// the list it is handed as it is, and says whether that changed anything.
func Merge(list []v1.Condition, news ...v1.Condition) ([]v1.Condition, bool) {
	changed := false
	for _, n := range news {
		var c bool
		list, c = mergeOne(list, n)
		changed = changed || c
	}
	return list, changed
}

// mergeOne hands back a new list with the condition set in it.
func mergeOne(list []v1.Condition, n v1.Condition) ([]v1.Condition, bool) {
	n.LastTransitionTime = metav1.Now()
	for i := range list {
		if list[i].Type != n.Type {
			continue
		}
		if list[i].Status == n.Status {
			return list, false
		}
		out := make([]v1.Condition, len(list))
		copy(out, list)
		out[i] = n
		return out, true
	}
	return append(list, n), true
}

// Set sets the condition in the list it is handed the address of.
func Set(list *[]v1.Condition, c v1.Condition) {
	*list, _ = mergeOne(*list, c)
}
