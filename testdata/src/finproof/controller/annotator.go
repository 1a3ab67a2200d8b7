package controller

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "AnnotateReconciler/finalizer-const" "AnnotateReconciler/finalizer-add" "AnnotateReconciler/finalizer-cleanup" "AnnotateReconciler/finalizer-remove"
// want-none "AnnotateReconciler/condition-types" "AnnotateReconciler/requeue-success" "AnnotateReconciler/interval-trace"

// ownerAnnotation names the team owning a Deployment.
const ownerAnnotation = "finproof.example.com/team"

// AnnotateReconciler marks every Deployment with a default team. It adds
// no finalizer and makes no child: the guard's owner reference is not its.
type AnnotateReconciler struct {
	client.Client
}

// Reconcile annotates one Deployment.
func (r *AnnotateReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "AnnotateReconciler/reconcile-entry"
	var dep appsv1.Deployment
	if err := r.Get(ctx, req.NamespacedName, &dep); err != nil { // want "AnnotateReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if dep.Annotations[ownerAnnotation] == "" { // want "AnnotateReconciler/drift:compare"
		if dep.Annotations == nil {
			dep.Annotations = map[string]string{}
		}
		dep.Annotations[ownerAnnotation] = "platform"
		if err := r.Update(ctx, &dep); err != nil { // want "AnnotateReconciler/drift:apply"
			return ctrl.Result{}, err // want "AnnotateReconciler/requeue-error"
		}
	}
	return ctrl.Result{}, nil
}

// SetupWithManager registers the annotator for Deployments.
func (r *AnnotateReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&appsv1.Deployment{}).Named("annotator").Complete(r)
}
