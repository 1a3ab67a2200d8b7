package controller

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "RolloutReconciler/finalizer-const" "RolloutReconciler/finalizer-add" "RolloutReconciler/finalizer-cleanup" "RolloutReconciler/finalizer-remove" "RolloutReconciler/condition-types" "RolloutReconciler/requeue-success" "RolloutReconciler/interval-trace"

// rolloutFuncs are the writes of one kind of workload, as values.
type rolloutFuncs struct {
	patch func(ctx context.Context, c client.Client, d *appsv1.Deployment, data []byte) error
}

// Outcomes of a rollout strategy.
const (
	rolled = iota + 1
	untouched
)

// outcome is what a strategy made of one workload.
type outcome struct {
	result int
}

// strategy decides whether a workload needs rolling for a ConfigMap's hash.
type strategy func(d *appsv1.Deployment, hash string) outcome

// RolloutReconciler rolls the Deployments of a ConfigMap's namespace when
// the ConfigMap changes. The patch is a value of a struct handed down, and
// whether it runs is decided by a strategy handed down too, which compares
// the live annotation with the hash: where drift is compared is not
// settled, and never "none".
type RolloutReconciler struct {
	client.Client
}

// Reconcile rolls the workloads that use the ConfigMap.
func (r *RolloutReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "RolloutReconciler/reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "RolloutReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	return ctrl.Result{}, r.rollAll(ctx, cm.Namespace, cm.ResourceVersion, deploymentRollout(), annotationStrategy) // want "RolloutReconciler/requeue-error"
}

// rollAll rolls each Deployment of a namespace that needs it.
func (r *RolloutReconciler) rollAll(ctx context.Context, ns, hash string, funcs rolloutFuncs, s strategy) error {
	var list appsv1.DeploymentList
	if err := r.List(ctx, &list, client.InNamespace(ns)); err != nil {
		return err
	}
	for i := range list.Items {
		if err := r.rollOne(ctx, &list.Items[i], hash, funcs, s); err != nil {
			return err
		}
	}
	return nil
}

// rollOne patches one Deployment when the strategy rolled it.
func (r *RolloutReconciler) rollOne(ctx context.Context, d *appsv1.Deployment, hash string, funcs rolloutFuncs, s strategy) error {
	out := s(d, hash)
	if out.result != rolled {
		return nil
	}
	data := []byte(fmt.Sprintf(`{"spec":{"template":{"metadata":{"annotations":{"config-hash":%q}}}}}`, hash))
	return funcs.patch(ctx, r.Client, d, data)
}

// deploymentRollout is the rollout of Deployments.
func deploymentRollout() rolloutFuncs {
	return rolloutFuncs{patch: patchDeployment}
}

// patchDeployment sends a merge patch of a Deployment.
func patchDeployment(ctx context.Context, c client.Client, d *appsv1.Deployment, data []byte) error {
	return c.Patch(ctx, d, client.RawPatch(types.MergePatchType, data)) // want "RolloutReconciler/drift:unsettled"
}

// annotationStrategy rolls a Deployment whose template does not carry the
// hash yet.
func annotationStrategy(d *appsv1.Deployment, hash string) outcome {
	if d.Spec.Template.Annotations["config-hash"] == hash {
		return outcome{result: untouched}
	}
	return outcome{result: rolled}
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *RolloutReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("rollout").For(&corev1.ConfigMap{}).Complete(r)
}
