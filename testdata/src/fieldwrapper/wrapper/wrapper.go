// Package wrapper holds one reconciler that every binary of the tree
// registers, each with its own function in the wrapper's configuration: the
// wrapper keeps the finalizer and runs the function between.
package wrapper

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// Finalizer is held by every object a wrapped function reconciles.
const Finalizer = "fieldwrapper.example.com/cleanup" // want "finalizer-const"

// ReconcileFunc is the work a binary hands the wrapper.
type ReconcileFunc func(ctx context.Context, req ctrl.Request, w *Wrapper) (ctrl.Result, error)

// Config is what a binary configures.
type Config struct {
	Name      string
	For       client.Object
	Reconcile ReconcileFunc
}

// Wrapper runs a binary's function for its kind.
type Wrapper struct {
	client.Client
	config Config
}

// New makes a wrapper of a configuration.
func New(c client.Client, config Config) *Wrapper {
	return &Wrapper{Client: c, config: config}
}

// Start registers the wrapper.
func (w *Wrapper) Start(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named(w.config.Name).For(w.config.For).Complete(w)
}

// Reconcile keeps the finalizer, runs the configured function, and cleans
// up after an object being deleted.
func (w *Wrapper) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	obj := w.config.For.DeepCopyObject().(client.Object)
	if err := w.Get(ctx, req.NamespacedName, obj); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if obj.GetDeletionTimestamp() != nil {
		if err := w.cleanup(ctx, obj); err != nil {
			return ctrl.Result{}, err
		}
		controllerutil.RemoveFinalizer(obj, Finalizer) // want "finalizer-remove"
		return ctrl.Result{}, w.Update(ctx, obj)
	}
	if controllerutil.AddFinalizer(obj, Finalizer) { // want "finalizer-add"
		if err := w.Update(ctx, obj); err != nil {
			return ctrl.Result{}, err
		}
	}
	result, err := w.config.Reconcile(ctx, req, w)
	if err != nil {
		return result, err
	}
	return result, nil
}

// cleanup deletes the ConfigMap the function published for the object.
func (w *Wrapper) cleanup(ctx context.Context, obj client.Object) error { // want "finalizer-cleanup"
	published := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: obj.GetNamespace(), Name: obj.GetName() + "-published"}}
	// (The wrapper's deletion test reads an object of no kind of the
	// tree's: the branch is not read off the steady pass.)
	return client.IgnoreNotFound(w.Delete(ctx, published)) // want "SecretKeeper/write-unsettled" "ConfigKeeper/write-unsettled"
}
