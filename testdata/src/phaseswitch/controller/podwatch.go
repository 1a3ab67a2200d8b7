package controller

import (
	"context"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "PodWatcher/finalizer-const" "PodWatcher/finalizer-add" "PodWatcher/finalizer-cleanup" "PodWatcher/finalizer-remove" "PodWatcher/condition-types"
// want-none "PodWatcher/requeue-success" "PodWatcher/interval-trace"

// PodWatcher looks at a Pod again while it runs, and leaves it once it has
// finished: whether the requeue while running is the steady state's
// interval or a wait for the Pod to finish, the Pod's phase decides.
type PodWatcher struct {
	client.Client
}

// Reconcile labels a Pod with its phase.
func (r *PodWatcher) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "PodWatcher/reconcile-entry"
	var pod corev1.Pod
	if err := r.Get(ctx, req.NamespacedName, &pod); err != nil { // want "PodWatcher/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if pod.Labels["phase"] != string(pod.Status.Phase) { // want "PodWatcher/drift:compare"
		pod.Labels["phase"] = string(pod.Status.Phase)
		if err := r.Update(ctx, &pod); err != nil { // want "PodWatcher/drift:apply"
			return ctrl.Result{}, err // want "PodWatcher/requeue-error"
		}
	}
	switch pod.Status.Phase {
	case corev1.PodSucceeded, corev1.PodFailed:
		return ctrl.Result{}, nil
	default:
		return ctrl.Result{RequeueAfter: 30 * time.Second}, nil
	}
}

// want-none "PauseReconciler/finalizer-const" "PauseReconciler/finalizer-add" "PauseReconciler/finalizer-cleanup" "PauseReconciler/finalizer-remove" "PauseReconciler/condition-types" "PauseReconciler/drift"

// PauseReconciler checks a Deployment every minute unless its Spec pauses
// it: a test of the configuration, not of the object's state, so the
// interval is the steady state of a Deployment that is not paused.
type PauseReconciler struct {
	client.Client
}

// Reconcile looks at a Deployment again in a minute unless it is paused.
func (r *PauseReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "PauseReconciler/reconcile-entry"
	var dep appsv1.Deployment
	if err := r.Get(ctx, req.NamespacedName, &dep); err != nil { // want "PauseReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err) // want "PauseReconciler/requeue-error"
	}
	if dep.Spec.Paused {
		return ctrl.Result{}, nil
	} else {
		return ctrl.Result{RequeueAfter: time.Minute}, nil // want "PauseReconciler/requeue-success" "PauseReconciler/trace:return" "PauseReconciler/trace:constant"
	}
}

// SetupWatchers registers the two reconcilers.
func SetupWatchers(mgr ctrl.Manager) error {
	if err := ctrl.NewControllerManagedBy(mgr).Named("podwatch").For(&corev1.Pod{}).Complete(&PodWatcher{Client: mgr.GetClient()}); err != nil {
		return err
	}
	if err := ctrl.NewControllerManagedBy(mgr).Named("podfinish").For(&corev1.Pod{}).Complete(&PodFinisher{Client: mgr.GetClient()}); err != nil {
		return err
	}
	return ctrl.NewControllerManagedBy(mgr).Named("pause").For(&appsv1.Deployment{}).Complete(&PauseReconciler{Client: mgr.GetClient()})
}
