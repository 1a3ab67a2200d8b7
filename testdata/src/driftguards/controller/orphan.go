package controller

import (
	"context"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// want-none "OrphanReconciler/finalizer-const" "OrphanReconciler/finalizer-add" "OrphanReconciler/finalizer-cleanup" "OrphanReconciler/finalizer-remove" "OrphanReconciler/condition-types" "OrphanReconciler/requeue-success" "OrphanReconciler/interval-trace" "OrphanReconciler/drift"

// serviceKind is the kind OrphanReconciler lets go of.
var serviceKind = schema.GroupKind{Kind: "Service"}

// OrphanReconciler lets go of the Service a ConfigMap owns when the
// ConfigMap asks to orphan it. The tests that decide ask which object the
// Service is (its kind, when the object says) and which object owns it
// (its owner reference's kind and name): tests of identity, which compare
// no desired state with the cluster, so drift is none.
type OrphanReconciler struct {
	client.Client
}

// Reconcile removes the ConfigMap's owner reference from its Service.
func (r *OrphanReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "OrphanReconciler/reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "OrphanReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if cm.Annotations["orphan"] != "true" {
		return ctrl.Result{}, nil
	}
	var svc corev1.Service
	if err := r.Get(ctx, req.NamespacedName, &svc); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if gk := svc.GroupVersionKind().GroupKind(); !gk.Empty() && gk != serviceKind {
		return ctrl.Result{}, nil
	}
	if !ownedBy(&svc, &cm) {
		return ctrl.Result{}, nil
	}
	if err := controllerutil.RemoveOwnerReference(&cm, &svc, r.Scheme()); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, r.Update(ctx, &svc) // want "OrphanReconciler/requeue-error"
}

// ownedBy reports whether cm owns svc.
func ownedBy(svc *corev1.Service, cm *corev1.ConfigMap) bool {
	for _, ref := range svc.OwnerReferences {
		if strings.ToLower(ref.Kind) == "configmap" && ref.Name == cm.Name {
			return true
		}
	}
	return false
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *OrphanReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("orphans").For(&corev1.ConfigMap{}).Complete(r)
}
