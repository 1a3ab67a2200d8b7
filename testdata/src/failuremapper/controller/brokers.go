package controller

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "BrokerReconciler/finalizer-const" "BrokerReconciler/finalizer-add" "BrokerReconciler/finalizer-cleanup" "BrokerReconciler/finalizer-remove" "BrokerReconciler/condition-types" "BrokerReconciler/requeue-success" "BrokerReconciler/interval-trace" "BrokerReconciler/drift"
// want-none "QuorumReconciler/finalizer-const" "QuorumReconciler/finalizer-add" "QuorumReconciler/finalizer-cleanup" "QuorumReconciler/finalizer-remove" "QuorumReconciler/condition-types" "QuorumReconciler/requeue-success" "QuorumReconciler/interval-trace" "QuorumReconciler/drift"

// brokersStarting says the brokers an object needs do not answer yet.
type brokersStarting struct{}

func (brokersStarting) Error() string { return "brokers still starting" }

// errNoQuorum says too few members answered.
var errNoQuorum = errors.New("no quorum")

// connectionResult turns a failure to reach the brokers into the result:
// brokers still starting are waited for, any other failure is retried
// with backoff. Whether that wait is a dependency's or a failure's
// retry, the code does not say: the requeue on success is not settled.
func connectionResult(err error) (ctrl.Result, error) {
	switch {
	case errors.As(err, &brokersStarting{}):
		return ctrl.Result{RequeueAfter: 15 * time.Second}, nil
	default:
		return ctrl.Result{}, err
	}
}

// BrokerReconciler checks that each Endpoints object reaches its brokers,
// unless it is paused.
type BrokerReconciler struct {
	client.Client
	paused atomic.Bool
}

// Reconcile reads the Endpoints and dials the brokers.
func (r *BrokerReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "BrokerReconciler/reconcile-entry"
	var ep corev1.Endpoints
	if err := r.Get(ctx, req.NamespacedName, &ep); err != nil { // want "BrokerReconciler/reread"
		return connectionResult(client.IgnoreNotFound(err))
	}
	if r.paused.Load() {
		// A wait on something else than work the pass did: it ranks no
		// higher than the brokers' wait.
		return ctrl.Result{RequeueAfter: time.Minute}, nil
	}
	if err := dial(&ep); err != nil {
		return connectionResult(err) // want "BrokerReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

func dial(ep *corev1.Endpoints) error {
	if len(ep.Subsets) == 0 {
		return brokersStarting{}
	}
	return nil
}

// SetupWithManager registers the reconciler for Endpoints.
func (r *BrokerReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("broker").For(&corev1.Endpoints{}).Complete(r)
}

// QuorumReconciler checks each claim's members, waiting while too few
// answer.
type QuorumReconciler struct{ client.Client }

// Reconcile reads the claim and counts its members.
func (r *QuorumReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "QuorumReconciler/reconcile-entry"
	var pvc corev1.PersistentVolumeClaim
	if err := r.Get(ctx, req.NamespacedName, &pvc); err != nil { // want "QuorumReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if err := count(&pvc); err != nil {
		if waiting := errors.Is(err, errNoQuorum); waiting {
			return ctrl.Result{RequeueAfter: 10 * time.Second}, nil
		}
		return ctrl.Result{}, err // want "QuorumReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

func count(pvc *corev1.PersistentVolumeClaim) error {
	if len(pvc.Spec.AccessModes) < 2 {
		return errNoQuorum
	}
	return nil
}

// SetupWithManager registers the reconciler for claims.
func (r *QuorumReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("quorum").For(&corev1.PersistentVolumeClaim{}).Complete(r)
}
