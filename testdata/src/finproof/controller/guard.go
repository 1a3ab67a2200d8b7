// Package controller holds two reconcilers of Deployments. The guard keeps
// a ConfigMap of each Deployment's labels, owned by the Deployment, and
// deletes it on deletion behind a finalizer: its deletion branch first
// tests for the finalizer with a predicate, then cleans up inline. The
// annotator adds no finalizer and owns nothing.
package controller

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// want-none "GuardReconciler/condition-types" "GuardReconciler/requeue-success" "GuardReconciler/interval-trace"

// guardFinalizer holds a Deployment until its labels ConfigMap is gone.
const guardFinalizer = "finproof.example.com/labels" // want "GuardReconciler/finalizer-const"

// GuardReconciler mirrors a Deployment's labels into a ConfigMap.
type GuardReconciler struct {
	client.Client
	Scheme *runtime.Scheme
}

// hasFinalizer is a predicate: it tests, and does no work.
func hasFinalizer(dep *appsv1.Deployment) bool {
	return controllerutil.ContainsFinalizer(dep, guardFinalizer)
}

// Reconcile mirrors one Deployment's labels, or cleans up on deletion.
func (r *GuardReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "GuardReconciler/reconcile-entry"
	var dep appsv1.Deployment
	if err := r.Get(ctx, req.NamespacedName, &dep); err != nil { // want "GuardReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !dep.DeletionTimestamp.IsZero() {
		// want-none "GuardReconciler/finalizer-cleanup"
		if hasFinalizer(&dep) { // decoy: the predicate is not the cleanup
			cm := corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: dep.Name + "-labels", Namespace: dep.Namespace}}
			if err := r.Delete(ctx, &cm); client.IgnoreNotFound(err) != nil {
				return ctrl.Result{}, err
			}
			controllerutil.RemoveFinalizer(&dep, guardFinalizer) // want "GuardReconciler/finalizer-remove"
			if err := r.Update(ctx, &dep); err != nil {
				return ctrl.Result{}, err
			}
		}
		return ctrl.Result{}, nil
	}
	if !hasFinalizer(&dep) {
		controllerutil.AddFinalizer(&dep, guardFinalizer) // want "GuardReconciler/finalizer-add"
		if err := r.Update(ctx, &dep); err != nil {
			return ctrl.Result{}, err
		}
	}
	// decoy: a guard on the Deployment's desired state alone compares
	// nothing with the cluster.
	if dep.Spec.Template.Spec.ServiceAccountName == "" {
		return ctrl.Result{}, nil
	}
	var cm corev1.ConfigMap
	key := types.NamespacedName{Namespace: dep.Namespace, Name: dep.Name + "-labels"}
	if err := r.Get(ctx, key, &cm); err != nil {
		if !apierrors.IsNotFound(err) {
			return ctrl.Result{}, err
		}
		cm = corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: key.Name, Namespace: key.Namespace}, Data: dep.Labels}
		if err := controllerutil.SetControllerReference(&dep, &cm, r.Scheme); err != nil {
			return ctrl.Result{}, err
		}
		return ctrl.Result{}, r.Create(ctx, &cm)
	}
	if !equality.Semantic.DeepEqual(cm.Data, dep.Labels) { // want "GuardReconciler/drift:compare"
		cm.Data = dep.Labels
		if err := r.Update(ctx, &cm); err != nil { // want "GuardReconciler/drift:apply"
			return ctrl.Result{}, err // want "GuardReconciler/requeue-error"
		}
	}
	return ctrl.Result{}, nil
}

// SetupWithManager registers the guard for Deployments.
func (r *GuardReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&appsv1.Deployment{}).Owns(&corev1.ConfigMap{}).Named("guard").Complete(r)
}
