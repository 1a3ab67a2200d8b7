// Package status sets a condition on any status it is handed, finding its
// Conditions field by reflection.
package status

import (
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// MarkReady sets the Ready condition on the status obj points to.
func MarkReady(obj any) {
	v := reflect.ValueOf(obj).Elem().FieldByName("Conditions")
	if !v.IsValid() {
		return
	}
	c := metav1.Condition{Type: "Ready", Status: metav1.ConditionTrue, Reason: "Reconciled"}
	v.Set(reflect.Append(v, reflect.ValueOf(c)))
}
