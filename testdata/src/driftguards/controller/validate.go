package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "ValidateReconciler/finalizer-const" "ValidateReconciler/finalizer-add" "ValidateReconciler/finalizer-cleanup" "ValidateReconciler/finalizer-remove" "ValidateReconciler/condition-types" "ValidateReconciler/requeue-success" "ValidateReconciler/interval-trace" "ValidateReconciler/drift"

// ValidateReconciler labels the volume claim each Pod mounts first, when a
// validation of the claim passes. The validation tests only nil and
// errors: it compares nothing, so its verdict guards no drift and the
// answer stays none.
type ValidateReconciler struct {
	client.Client
}

// Reconcile labels the Pod's first claim.
func (r *ValidateReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "ValidateReconciler/reconcile-entry"
	var pod corev1.Pod
	if err := r.Get(ctx, req.NamespacedName, &pod); err != nil { // want "ValidateReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if len(pod.Spec.Volumes) == 0 || pod.Spec.Volumes[0].PersistentVolumeClaim == nil {
		return ctrl.Result{}, nil
	}
	var claim corev1.PersistentVolumeClaim
	if err := r.Get(ctx, client.ObjectKey{Namespace: pod.Namespace, Name: pod.Spec.Volumes[0].PersistentVolumeClaim.ClaimName}, &claim); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	valid, err := validClaim(&claim, &pod)
	if !valid {
		return ctrl.Result{}, err
	}
	patch := client.MergeFrom(claim.DeepCopy())
	if claim.Labels == nil {
		claim.Labels = map[string]string{}
	}
	claim.Labels["mounted-by"] = pod.Name
	return ctrl.Result{}, r.Patch(ctx, &claim, patch) // want "ValidateReconciler/requeue-error" "ValidateReconciler/write-always"
}

// validClaim says whether a claim can be labelled: it names a storage
// class and the Pod is scheduled.
func validClaim(claim *corev1.PersistentVolumeClaim, pod *corev1.Pod) (bool, error) {
	if claim.Spec.StorageClassName == nil {
		return false, nil
	}
	if pod.Spec.NodeName == "" {
		return false, nil
	}
	return true, nil
}

// SetupWithManager registers the reconciler for Pods.
func (r *ValidateReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("validate").For(&corev1.Pod{}).Complete(r)
}
