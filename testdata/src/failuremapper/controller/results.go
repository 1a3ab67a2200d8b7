package controller

import (
	"context"
	"errors"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "HandlerReconciler/finalizer-const" "HandlerReconciler/finalizer-add" "HandlerReconciler/finalizer-cleanup" "HandlerReconciler/finalizer-remove" "HandlerReconciler/condition-types"

// resultHandler hands back the results the reconcilers share. Its
// failure result only carries the error its caller found: the failure is
// handled where the handler is called.
type resultHandler struct {
	onError ctrl.Result
}

// requeueError hands a failure back for a rate-limited retry.
func (h *resultHandler) requeueError(err error) (ctrl.Result, error) {
	return h.onError, err
}

// relabelEvery is how often a labelled Service is looked at again.
const relabelEvery = 5 * time.Minute // want "HandlerReconciler/trace:constant"

// HandlerReconciler labels each Service, its failures handed back through
// a shared result handler.
type HandlerReconciler struct {
	client.Client
	results resultHandler
}

// Reconcile labels the Service.
func (r *HandlerReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "HandlerReconciler/reconcile-entry"
	var svc corev1.Service
	if err := r.Get(ctx, req.NamespacedName, &svc); err != nil { // want "HandlerReconciler/reread"
		if client.IgnoreNotFound(err) == nil {
			return ctrl.Result{}, nil
		}
		return r.results.requeueError(err)
	}
	if svc.Labels["labelled"] == "yes" { // want "HandlerReconciler/drift:compare"
		return ctrl.Result{RequeueAfter: relabelEvery}, nil
	}
	if svc.Labels == nil {
		svc.Labels = map[string]string{}
	}
	svc.Labels["labelled"] = "yes"
	if err := r.Update(ctx, &svc); err != nil { // want "HandlerReconciler/drift:apply"
		return r.results.requeueError(err) // want "HandlerReconciler/requeue-error"
	}
	return ctrl.Result{RequeueAfter: relabelEvery}, nil // want "HandlerReconciler/requeue-success" "HandlerReconciler/trace:return"
}

// SetupWithManager registers the reconciler for Services.
func (r *HandlerReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("handler").For(&corev1.Service{}).Complete(r)
}

// want-none "SortReconciler/finalizer-const" "SortReconciler/finalizer-add" "SortReconciler/finalizer-cleanup" "SortReconciler/finalizer-remove" "SortReconciler/condition-types" "SortReconciler/requeue-success" "SortReconciler/interval-trace"

// errBusy is a failure worth a quick retry.
var errBusy = errors.New("busy")

// sortError turns a failure into a result: a busy one is retried soon
// with no error, any other goes back with its error.
func sortError(err error, what string) (ctrl.Result, error) {
	if err == nil {
		return ctrl.Result{}, nil
	}
	if errors.Is(err, errBusy) {
		return ctrl.Result{RequeueAfter: time.Second}, nil
	}
	return ctrl.Result{}, fmt.Errorf("%s: %w", what, err)
}

// SortReconciler annotates each ConfigMap, its failures sorted by a
// helper called where they happen.
type SortReconciler struct {
	client.Client
}

// Reconcile annotates the ConfigMap.
func (r *SortReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "SortReconciler/reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "SortReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if cm.Annotations["sorted"] != "" { // want "SortReconciler/drift:compare"
		return ctrl.Result{}, nil
	}
	if err := r.prepare(ctx, &cm); err != nil {
		return sortError(err, "prepare")
	}
	if cm.Annotations == nil {
		cm.Annotations = map[string]string{}
	}
	cm.Annotations["sorted"] = "yes"
	if err := r.Update(ctx, &cm); err != nil { // want "SortReconciler/drift:apply"
		return sortError(err, "annotate") // want "SortReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// prepare checks the ConfigMap's namespace is there.
func (r *SortReconciler) prepare(ctx context.Context, cm *corev1.ConfigMap) error {
	var ns corev1.Namespace
	return r.Get(ctx, client.ObjectKey{Name: cm.Namespace}, &ns)
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *SortReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("sort").For(&corev1.ConfigMap{}).Complete(r)
}
