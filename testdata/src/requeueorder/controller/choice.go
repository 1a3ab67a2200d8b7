package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "ChoiceReconciler/requeue-success" "ChoiceReconciler/requeue-error"

// enforceAnnotation, on a ResourceQuota, chooses what it waits on.
const enforceAnnotation = "example.com/enforce"

// choiceWait is how long a ResourceQuota waits on what it needs. Both
// waits wait for it: the interval trace, from the first, says no field of
// the object sets it.
const choiceWait = 20 * time.Second // want "ChoiceReconciler/trace:constant"

// ChoiceReconciler checks a ResourceQuota against its namespace, or
// against the namespace's LimitRange, as its annotation chooses, and waits
// on the one it checks: the two waits are cases of one switch, and neither
// is the success's requeue more than the other.
type ChoiceReconciler struct {
	client.Client
}

// Reconcile looks at one ResourceQuota.
func (r *ChoiceReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "ChoiceReconciler/reconcile-entry"
	var quota corev1.ResourceQuota
	if err := r.Get(ctx, req.NamespacedName, &quota); err != nil { // want "ChoiceReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	switch quota.Annotations[enforceAnnotation] {
	case "namespace":
		var ns corev1.Namespace
		if err := r.Get(ctx, types.NamespacedName{Name: quota.Namespace}, &ns); err != nil {
			return ctrl.Result{}, err
		}
		if ns.Status.Phase != corev1.NamespaceActive {
			return ctrl.Result{RequeueAfter: choiceWait}, nil // want "ChoiceReconciler/trace:return"
		}
	case "limits":
		var lr corev1.LimitRange
		if err := r.Get(ctx, types.NamespacedName{Namespace: quota.Namespace, Name: "limits"}, &lr); err != nil {
			return ctrl.Result{}, err
		}
		if len(lr.Spec.Limits) == 0 {
			return ctrl.Result{RequeueAfter: choiceWait}, nil
		}
	}
	quota.Labels = map[string]string{"example.com/checked": "true"}
	if err := r.Update(ctx, &quota); err != nil { // want "ChoiceReconciler/write-always"
		return ctrl.Result{}, err // the failure last before the final return, not before the first wait: not settled
	}
	return ctrl.Result{}, nil
}
