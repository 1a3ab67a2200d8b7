package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "PowerReconciler/finalizer-const" "PowerReconciler/finalizer-add" "PowerReconciler/finalizer-cleanup" "PowerReconciler/finalizer-remove" "PowerReconciler/condition-types" "PowerReconciler/drift"
// want-none "PowerReconciler/requeue-success" "PowerReconciler/requeue-error"

// powerAnnotation is the state a Node is asked to reach.
const powerAnnotation = "example.com/power"

// PowerReconciler asks a Node's machine to power on or off, as the Node's
// annotation says, and looks again until the machine is there: which wait
// a pass makes, the annotation chooses. Neither wait's duration is set by
// a field of the object, which the interval trace says from the first.
type PowerReconciler struct {
	client.Client
	Machines Machines
}

// Machines is the machine API the reconciler drives.
type Machines interface {
	State(ctx context.Context, node string) (string, error)
	Set(ctx context.Context, node, state string) error
}

// Reconcile drives the Node's machine to the state its annotation asks for.
func (r *PowerReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "PowerReconciler/reconcile-entry"
	var node corev1.Node
	if err := r.Get(ctx, req.NamespacedName, &node); err != nil { // want "PowerReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	state, err := r.Machines.State(ctx, node.Name)
	if err != nil {
		return ctrl.Result{}, err
	}
	switch want := node.Annotations[powerAnnotation]; want {
	case "on":
		if state != "on" {
			if err := r.Machines.Set(ctx, node.Name, "on"); err != nil {
				return ctrl.Result{}, err
			}
			return ctrl.Result{RequeueAfter: 30 * time.Second}, nil // want "PowerReconciler/trace:return" "PowerReconciler/trace:constant"
		}
	case "off":
		if state != "off" {
			if err := r.Machines.Set(ctx, node.Name, "off"); err != nil {
				return ctrl.Result{}, err // the failure last before the final return, not before the first wait: not settled
			}
			return ctrl.Result{RequeueAfter: time.Minute}, nil // the other case's: not settled, cited
		}
	}
	return ctrl.Result{}, nil
}

// SetupWithManager registers the reconciler for Nodes.
func (r *PowerReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Node{}).Complete(r)
}
