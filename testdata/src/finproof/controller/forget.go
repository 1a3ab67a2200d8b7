package controller

import (
	"context"
	"sync"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/log"
)

// want-none "ForgetReconciler/condition-types" "ForgetReconciler/requeue-success" "ForgetReconciler/interval-trace" "ForgetReconciler/drift"

// forgetFinalizer holds a claim until the controller lets it go.
const forgetFinalizer = "finproof.example.com/forget" // want "ForgetReconciler/finalizer-const"

// Notifier reports what went wrong with an object.
type Notifier interface {
	Failed(obj client.Object, err error)
}

// logNotifier reports to the log.
type logNotifier struct{}

// Failed logs the failure.
func (logNotifier) Failed(obj client.Object, err error) {
	log.Log.Error(err, "failed", "name", obj.GetName())
}

// ForgetReconciler keeps a finalizer on PersistentVolumeClaims and, on
// deletion, drops it inline: what its deletion branch calls is a value
// for the log, the report of a failed removal and bookkeeping once the
// finalizer is gone, none of them a cleanup.
type ForgetReconciler struct {
	client.Client
	Notifier Notifier
	mu       sync.Mutex
	seen     map[types.NamespacedName]bool
}

// stampNow is the time, for the log.
func stampNow() string {
	return metav1.Now().String()
}

// forget drops the claim from what the controller has seen.
func (r *ForgetReconciler) forget(key types.NamespacedName) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.seen, key)
}

// Reconcile keeps the finalizer on one claim, or drops it on deletion.
func (r *ForgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "ForgetReconciler/reconcile-entry"
	var pvc corev1.PersistentVolumeClaim
	if err := r.Get(ctx, req.NamespacedName, &pvc); err != nil { // want "ForgetReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !pvc.DeletionTimestamp.IsZero() {
		// want-none "ForgetReconciler/finalizer-cleanup"
		log.FromContext(ctx).Info("releasing", "at", stampNow()) // decoy: a value handed to the logger
		controllerutil.RemoveFinalizer(&pvc, forgetFinalizer)    // want "ForgetReconciler/finalizer-remove"
		if err := r.Update(ctx, &pvc); err != nil {
			r.Notifier.Failed(&pvc, err) // decoy: reports the failed removal
			return ctrl.Result{}, err
		}
		r.forget(req.NamespacedName) // bookkeeping once the finalizer is gone: the only work, so the cleanup is not settled
		return ctrl.Result{}, nil
	}
	if !controllerutil.ContainsFinalizer(&pvc, forgetFinalizer) {
		controllerutil.AddFinalizer(&pvc, forgetFinalizer) // want "ForgetReconciler/finalizer-add"
		if err := r.Update(ctx, &pvc); err != nil {
			return ctrl.Result{}, err // want "ForgetReconciler/requeue-error"
		}
	}
	return ctrl.Result{}, nil
}

// SetupWithManager registers the reconciler for PersistentVolumeClaims.
func (r *ForgetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	r.Notifier = logNotifier{}
	r.seen = map[types.NamespacedName]bool{}
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.PersistentVolumeClaim{}).Named("forget").Complete(r)
}
