// Package controller holds the Beacon reconciler.
package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	beaconv1 "example.com/fixtures/handedwrite/api/v1"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "requeue-success" "drift" "interval-trace"

// BeaconReconciler stamps a Beacon's name into its target ConfigMaps, each
// write retried by a backoff loop of the library's.
type BeaconReconciler struct {
	client.Client
}

// SetupWithManager registers the reconciler with the manager.
func (r *BeaconReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&beaconv1.Beacon{}).Complete(r)
}

var steps = wait.Backoff{Steps: 3, Duration: 10 * time.Millisecond, Factor: 2}

// Reconcile hands one stamping function per target to the backoff loop,
// and the beacon's own marker straight to it.
func (r *BeaconReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "reconcile-entry"
	beacon := &beaconv1.Beacon{}
	if err := r.Get(ctx, req.NamespacedName, beacon); err != nil { // want "reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	var stamps []wait.ConditionFunc
	for _, target := range beacon.Spec.Targets {
		name := target
		stamp := func() (bool, error) {
			return r.stamp(ctx, beacon, name) == nil, nil
		}
		stamps = append(stamps, stamp)
	}
	for _, stamp := range stamps {
		if err := wait.ExponentialBackoff(steps, stamp); err != nil {
			return ctrl.Result{}, err
		}
	}
	if err := wait.ExponentialBackoff(steps, func() (bool, error) {
		return r.mark(ctx, beacon) == nil, nil
	}); err != nil {
		return ctrl.Result{}, err // want "requeue-error"
	}
	return ctrl.Result{}, nil
}

// stamp writes the beacon's name into one target, unconditionally.
func (r *BeaconReconciler) stamp(ctx context.Context, beacon *beaconv1.Beacon, name string) error {
	cm := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Namespace: beacon.Namespace, Name: name},
		Data:       map[string]string{"beacon": beacon.Name},
	}
	return r.Update(ctx, cm) // want "write-unsettled"
}

// mark writes the beacon's marker ConfigMap, unconditionally.
func (r *BeaconReconciler) mark(ctx context.Context, beacon *beaconv1.Beacon) error {
	cm := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Namespace: beacon.Namespace, Name: beacon.Name + "-mark"},
		Data:       map[string]string{"lit": "true"},
	}
	return r.Update(ctx, cm) // want "write-unsettled"
}
