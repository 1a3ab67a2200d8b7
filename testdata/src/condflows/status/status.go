// Package status computes a Beta's conditions from its phase, for the
// controller to store.
package status

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	v1 "example.com/fixtures/condflows/api/v1"
)

// MakeStatusConditions says whether the Beta is ready in its phase, and
// the conditions it should carry.
func MakeStatusConditions(obj *v1.Beta, phase string) (bool, []metav1.Condition) {
	ready := metav1.Condition{Type: v1.BetaReady, Status: metav1.ConditionFalse, Reason: phase, ObservedGeneration: obj.Generation}
	if phase == "Running" {
		ready.Status = metav1.ConditionTrue
	}
	scheduled := metav1.Condition{Type: v1.BetaScheduled, Status: metav1.ConditionTrue, Reason: phase}
	return ready.Status == metav1.ConditionTrue, []metav1.Condition{ready, scheduled}
}

// Preview lists what the conditions would be in the next phase.
func Preview(phase string) []metav1.Condition {
	return []metav1.Condition{{Type: v1.BetaPreview, Status: metav1.ConditionUnknown, Reason: phase}}
}
