package configs

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "ConfigGate/finalizer-const" "ConfigGate/finalizer-add" "ConfigGate/finalizer-cleanup" "ConfigGate/finalizer-remove"
// want-none "ConfigGate/condition-types" "ConfigGate/requeue-error" "ConfigGate/requeue-success" "ConfigGate/interval-trace" "ConfigGate/drift"

// ConfigGate passes ConfigMaps through a gate.
type ConfigGate struct {
	client.Client
}

// Pass reads the ConfigMap.
func (g *ConfigGate) Pass(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "ConfigGate/reconcile-entry"
	var cm corev1.ConfigMap
	if err := g.Get(ctx, req.NamespacedName, &cm); err != nil { // want "ConfigGate/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	return ctrl.Result{}, nil
}
