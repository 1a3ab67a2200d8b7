package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// want-none "ChainReconciler/condition-types" "ChainReconciler/requeue-success" "ChainReconciler/interval-trace" "ChainReconciler/drift"

// chainFinalizer holds a Service until it lets go of the one it fronts.
const chainFinalizer = "finproof.example.com/chain" // want "ChainReconciler/finalizer-const"

// frontedBy prefixes the finalizer a fronting Service puts on the Service
// it fronts (another Service, named in its Spec), so that the fronted one
// stays while something points at it.
const frontedBy = "finproof.example.com/fronted-by."

// ChainReconciler keeps the Service an ExternalName Service fronts.
type ChainReconciler struct {
	client.Client
}

// Reconcile holds the fronted Service, or lets it go on deletion.
func (r *ChainReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "ChainReconciler/reconcile-entry"
	var svc corev1.Service
	if err := r.Get(ctx, req.NamespacedName, &svc); err != nil { // want "ChainReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !svc.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, r.unchain(ctx, &svc)
	}
	if !controllerutil.ContainsFinalizer(&svc, chainFinalizer) {
		controllerutil.AddFinalizer(&svc, chainFinalizer) // want "ChainReconciler/finalizer-add"
		if err := r.Update(ctx, &svc); err != nil {
			return ctrl.Result{}, err
		}
	}
	return ctrl.Result{}, r.hold(ctx, &svc) // want "ChainReconciler/requeue-error"
}

// hold marks the fronted Service: a Service of the same kind, read by the
// name the fronting one's Spec gives.
func (r *ChainReconciler) hold(ctx context.Context, svc *corev1.Service) error {
	fronted := &corev1.Service{}
	key := types.NamespacedName{Namespace: svc.Namespace, Name: svc.Spec.ExternalName}
	if err := r.Get(ctx, key, fronted); err != nil {
		return client.IgnoreNotFound(err)
	}
	if controllerutil.AddFinalizer(fronted, frontedBy+svc.Name) { // decoy: another Service's finalizer
		return r.Update(ctx, fronted)
	}
	return nil
}

// unchain lets the fronted Service go, then the fronting one.
func (r *ChainReconciler) unchain(ctx context.Context, svc *corev1.Service) error { // want "ChainReconciler/finalizer-cleanup"
	for _, port := range svc.Spec.Ports {
		var fronted corev1.Service
		if err := r.Get(ctx, types.NamespacedName{Namespace: svc.Namespace, Name: port.Name}, &fronted); err != nil {
			return client.IgnoreNotFound(err)
		}
		if controllerutil.RemoveFinalizer(&fronted, frontedBy+svc.Name) { // decoy: another Service's finalizer
			if err := r.Update(ctx, &fronted); err != nil {
				return err
			}
		}
	}
	controllerutil.RemoveFinalizer(svc, chainFinalizer) // want "ChainReconciler/finalizer-remove"
	return r.Update(ctx, svc)
}

// SetupWithManager registers the chainer for Services.
func (r *ChainReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Service{}).Named("chainer").Complete(r)
}
