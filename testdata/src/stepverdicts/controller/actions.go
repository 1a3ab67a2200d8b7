package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "ActionReconciler/finalizer-const" "ActionReconciler/finalizer-add" "ActionReconciler/finalizer-cleanup" "ActionReconciler/finalizer-remove" "ActionReconciler/condition-types" "ActionReconciler/requeue-success" "ActionReconciler/interval-trace" "ActionReconciler/drift"

// action handles a Service, handing back the Service to write, or nil
// when there is nothing to write.
type action interface {
	Handle(ctx context.Context, svc *corev1.Service) (*corev1.Service, error)
}

// annotate hands back the Service annotated as handled, every time.
type annotate struct{}

func (annotate) Handle(_ context.Context, svc *corev1.Service) (*corev1.Service, error) {
	out := svc.DeepCopy()
	if out.Annotations == nil {
		out.Annotations = map[string]string{}
	}
	out.Annotations["actions.example.com/handled"] = "true"
	return out, nil
}

// ActionReconciler runs the action it is built with over each Service and
// writes what the action hands back. Whether an action hands back a
// Service on an unchanged one's pass is the implementation's, which the
// search does not follow: the write is not settled.
type ActionReconciler struct {
	client.Client
	Action action
}

// Reconcile reads the Service and runs the action.
func (r *ActionReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "ActionReconciler/reconcile-entry"
	svc := &corev1.Service{}
	if err := r.Get(ctx, req.NamespacedName, svc); err != nil { // want "ActionReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	next, err := r.Action.Handle(ctx, svc)
	if err != nil {
		return ctrl.Result{}, err
	}
	if next != nil {
		return ctrl.Result{}, r.Update(ctx, next) // want "ActionReconciler/requeue-error" "ActionReconciler/write-unsettled"
	}
	return ctrl.Result{}, nil
}

// SetupWithManager registers the reconciler for Services.
func (r *ActionReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Service{}).Named("actions").Complete(r)
}

// want-none "ChainReconciler/finalizer-const" "ChainReconciler/finalizer-add" "ChainReconciler/finalizer-cleanup" "ChainReconciler/finalizer-remove" "ChainReconciler/condition-types" "ChainReconciler/requeue-success" "ChainReconciler/interval-trace" "ChainReconciler/drift"

// ChainReconciler runs the actions it is built with in turn, writing what
// the first one to hand back a Service hands back. The test that skips an
// action that hands back nothing is in the loop: its way that leads to
// the write without coming back round is the write's way, and which way
// it goes is the implementation's: the write is not settled.
type ChainReconciler struct {
	client.Client
	Actions []action
}

// Reconcile reads the Service and runs the actions.
func (r *ChainReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "ChainReconciler/reconcile-entry"
	svc := &corev1.Service{}
	if err := r.Get(ctx, req.NamespacedName, svc); err != nil { // want "ChainReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	for _, a := range r.Actions {
		next, err := a.Handle(ctx, svc)
		if err != nil {
			return ctrl.Result{}, err
		}
		if next == nil {
			continue
		}
		return ctrl.Result{}, r.Update(ctx, next) // want "ChainReconciler/requeue-error" "ChainReconciler/write-unsettled"
	}
	return ctrl.Result{}, nil
}

// SetupWithManager registers the reconciler for Services.
func (r *ChainReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Service{}).Named("chain").Complete(r)
}
