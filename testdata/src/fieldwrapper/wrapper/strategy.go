package wrapper

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "Strategist/finalizer-const" "Strategist/finalizer-add" "Strategist/finalizer-cleanup" "Strategist/finalizer-remove"
// want-none "Strategist/condition-types" "Strategist/reread" "Strategist/requeue-error" "Strategist/requeue-success" "Strategist/interval-trace" "Strategist/drift"

// Strategy is how a Strategist labels a ConfigMap: each binary picks one.
// Every strategy reads the ConfigMap itself, so the strategies are ways of
// one controller, not controllers of their own.
type Strategy interface {
	Apply(ctx context.Context, req ctrl.Request, c client.Client) (ctrl.Result, error)
}

// Strategist labels ConfigMaps the way its strategy says.
type Strategist struct {
	client.Client
	Strategy Strategy
}

// Start registers the strategist.
func (s *Strategist) Start(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("strategist").For(&corev1.ConfigMap{}).Complete(s)
}

// Reconcile hands the request to the strategy.
func (s *Strategist) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "Strategist/reconcile-entry"
	return s.Strategy.Apply(ctx, req, s.Client)
}

// Eager labels at once.
type Eager struct{}

// Apply labels the ConfigMap.
func (Eager) Apply(ctx context.Context, req ctrl.Request, c client.Client) (ctrl.Result, error) {
	var cm corev1.ConfigMap
	if err := c.Get(ctx, req.NamespacedName, &cm); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	cm.Labels = map[string]string{"strategy": "eager"}
	return ctrl.Result{}, c.Update(ctx, &cm) // want "Strategist/write-unsettled"
}

// Lazy labels only what has no label.
type Lazy struct{}

// Apply labels the ConfigMap when it has none.
func (Lazy) Apply(ctx context.Context, req ctrl.Request, c client.Client) (ctrl.Result, error) {
	var cm corev1.ConfigMap
	if err := c.Get(ctx, req.NamespacedName, &cm); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if len(cm.Labels) > 0 {
		return ctrl.Result{}, nil
	}
	cm.Labels = map[string]string{"strategy": "lazy"}
	return ctrl.Result{}, c.Update(ctx, &cm)
}
