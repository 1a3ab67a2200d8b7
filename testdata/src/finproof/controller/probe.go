package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "ProbeReconciler/finalizer-const" "ProbeReconciler/finalizer-add" "ProbeReconciler/finalizer-cleanup" "ProbeReconciler/finalizer-remove"
// want-none "ProbeReconciler/condition-types" "ProbeReconciler/requeue-success" "ProbeReconciler/interval-trace" "ProbeReconciler/drift"

// ProbeReconciler waits for a Service's probe pod to get an address, and
// deletes the pod when it does not in time.
type ProbeReconciler struct {
	client.Client
}

// Reconcile waits for one Service's probe pod.
func (r *ProbeReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "ProbeReconciler/reconcile-entry"
	var svc corev1.Service
	if err := r.Get(ctx, req.NamespacedName, &svc); err != nil { // want "ProbeReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	_, err := r.waitForAddress(ctx, types.NamespacedName{Namespace: svc.Namespace, Name: svc.Name + "-probe"})
	return ctrl.Result{}, err // want "ProbeReconciler/requeue-error"
}

// waitForAddress polls the pod until it has an address; on the timeout,
// in the select's other clause, it deletes the pod.
func (r *ProbeReconciler) waitForAddress(ctx context.Context, key types.NamespacedName) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	var pod corev1.Pod
	for {
		select {
		case <-tick.C:
			if err := r.Get(ctx, key, &pod); err != nil {
				return "", client.IgnoreNotFound(err)
			}
			if pod.Status.PodIP != "" { // decoy: the wait's end, and the delete beside it is the timeout's
				return pod.Status.PodIP, nil
			}
		case <-ctx.Done():
			if err := r.Delete(context.Background(), &pod); err != nil {
				return "", err
			}
			return "", ctx.Err()
		}
	}
}

// SetupWithManager registers the prober for Services.
func (r *ProbeReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Service{}).Named("prober").Complete(r)
}
