// Package controller holds a reconciler that scales a Deployment to the
// replica count a ConfigMap names. Its answers go through helpers: the
// event every pass records is recorded by a helper called on each branch
// (another helper, called on one branch only, is not every pass), the
// drift is found by a predicate of its own handed the live Deployment,
// and a test of the Deployment's state against a constant compares
// nothing with desired state.
package controller

import (
	"context"
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/record"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "requeue-success" "interval-trace"

// ScaleReconciler keeps a Deployment at the replicas its ConfigMap names.
type ScaleReconciler struct {
	client.Client
	Recorder record.EventRecorder
}

// Reconcile scales the ConfigMap's Deployment when its replicas differ.
func (r *ScaleReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	var dep appsv1.Deployment
	if err := r.Get(ctx, types.NamespacedName{Namespace: cm.Namespace, Name: cm.Name}, &dep); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if dep.Status.ObservedGeneration == 0 { // decoy: drift:compare (the Deployment's state tested against a constant)
		return ctrl.Result{}, nil
	}
	want := desiredReplicas(&cm)
	if needsScale(&dep, want) { // want "drift:compare"
		dep.Spec.Replicas = &want
		if err := r.Update(ctx, &dep); err != nil { // want "drift:apply"
			r.note(&cm, corev1.EventTypeWarning, "ScaleFailed")
			return ctrl.Result{}, err // want "requeue-error"
		}
		r.audit(&cm, want)
		r.note(&cm, corev1.EventTypeNormal, "Scaled")
	} else {
		r.note(&cm, corev1.EventTypeNormal, "InSync")
	}
	return ctrl.Result{}, nil
}

// note records an event about the ConfigMap: every pass that succeeds
// calls it once, on one branch or the other.
func (r *ScaleReconciler) note(cm *corev1.ConfigMap, eventType, reason string) {
	r.Recorder.Event(cm, eventType, reason, "replicas of "+cm.Name) // want "write-always"
}

// audit records the new replica count: only a pass that scales calls it.
func (r *ScaleReconciler) audit(cm *corev1.ConfigMap, replicas int32) {
	r.Recorder.Eventf(cm, corev1.EventTypeNormal, "Audit", "scaled to %d", replicas) // decoy: write-always (one branch only)
}

// desiredReplicas is the ConfigMap's "replicas" key, one when unset.
func desiredReplicas(cm *corev1.ConfigMap) int32 {
	n, err := strconv.Atoi(cm.Data["replicas"])
	if err != nil {
		return 1
	}
	return int32(n)
}

// needsScale reports whether the live Deployment's replicas differ from
// those wanted.
func needsScale(dep *appsv1.Deployment, want int32) bool {
	return dep.Spec.Replicas == nil || *dep.Spec.Replicas != want
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *ScaleReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Owns(&appsv1.Deployment{}).Complete(r)
}
