package configs

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "ConfigRunner/finalizer-const" "ConfigRunner/finalizer-add" "ConfigRunner/finalizer-cleanup" "ConfigRunner/finalizer-remove"
// want-none "ConfigRunner/condition-types" "ConfigRunner/requeue-success" "ConfigRunner/interval-trace" "ConfigRunner/drift"

// ConfigRunner is the work one binary hands a runner.
type ConfigRunner struct{}

// Run reads the ConfigMap.
func (w ConfigRunner) Run(ctx context.Context, req ctrl.Request, c client.Client) (ctrl.Result, error) { // want "ConfigRunner/reconcile-entry"
	var cm corev1.ConfigMap
	if err := c.Get(ctx, req.NamespacedName, &cm); err != nil { // want "ConfigRunner/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err) // want "ConfigRunner/requeue-error"
	}
	return ctrl.Result{}, nil
}
