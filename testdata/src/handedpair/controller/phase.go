// Package controller holds reconcilers whose entry hands back the result
// and the error of an inner pass made by one call, with more results
// beside them. PhaseReconciler returns them itself after recording the
// pass in the object's status; TallyReconciler hands them to a helper
// that turns a failure with a result into that result alone. In both the
// main work's failure is the inner pass's last before its success return,
// not the entry's return that hands it on.
package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "PhaseReconciler/finalizer-const" "PhaseReconciler/finalizer-add" "PhaseReconciler/finalizer-cleanup" "PhaseReconciler/finalizer-remove" "PhaseReconciler/condition-types" "PhaseReconciler/drift" "PhaseReconciler/requeue-success" "PhaseReconciler/interval-trace"

// PhaseReconciler keeps a Secret and a ConfigMap beside each Namespace's
// marker ConfigMap, and writes the pass's phase into its labels.
type PhaseReconciler struct {
	client.Client
}

// Reconcile runs the pass and records how it went.
func (r *PhaseReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "PhaseReconciler/reconcile-entry"
	res, cm, phase, err := r.pass(ctx, req)
	if cm == nil {
		return res, err
	}
	if err != nil {
		phase = "Failed"
	}
	cm.Labels = map[string]string{"phase": phase}
	if uerr := r.Update(ctx, cm); uerr != nil { // want "PhaseReconciler/write-always"
		return ctrl.Result{}, uerr
	}
	return res, err
}

// pass makes the Secret and the ConfigMap the marker asks for.
func (r *PhaseReconciler) pass(ctx context.Context, req ctrl.Request) (ctrl.Result, *corev1.ConfigMap, string, error) {
	cm := &corev1.ConfigMap{}
	if err := r.Get(ctx, req.NamespacedName, cm); err != nil { // want "PhaseReconciler/reread"
		return ctrl.Result{}, nil, "", client.IgnoreNotFound(err)
	}
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: cm.Namespace, Name: cm.Name + "-secret"}}
	if err := r.Create(ctx, secret); client.IgnoreAlreadyExists(err) != nil { // want "PhaseReconciler/write-always"
		return ctrl.Result{}, cm, "Pending", err
	}
	copied := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: cm.Namespace, Name: cm.Name + "-copy"}, Data: cm.Data}
	if err := r.Create(ctx, copied); client.IgnoreAlreadyExists(err) != nil { // want "PhaseReconciler/write-always"
		return ctrl.Result{}, cm, "Pending", err // want "PhaseReconciler/requeue-error"
	}
	return ctrl.Result{}, cm, "Ready", nil
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *PhaseReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("phase").For(&corev1.ConfigMap{}).Owns(&corev1.Secret{}).Complete(r)
}
