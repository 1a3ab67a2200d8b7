package controller

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	v1 "example.com/fixtures/driftguards/api/v1"
)

// want-none "PoolReconciler/condition-types" "PoolReconciler/requeue-success" "PoolReconciler/interval-trace"
// want-none "RecordedPoolReconciler/condition-types" "RecordedPoolReconciler/requeue-success" "RecordedPoolReconciler/interval-trace"

// poolFinalizer holds a Pool until its Deployment is scaled to zero.
const poolFinalizer = "driftguards.example.com/drain" // want "PoolReconciler/finalizer-const" "RecordedPoolReconciler/finalizer-const"

// PoolReconciler scales a Pool's Deployment to the Pool's replicas when the
// live count, read by a getter of its own, differs. The finalizer's cleanup
// scales the same Deployment to zero through the same helper: the helper
// runs on the success path too, where it applies the difference.
type PoolReconciler struct {
	client.Client
}

// Reconcile keeps the Deployment's replicas, or drains it on deletion.
func (r *PoolReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "PoolReconciler/reconcile-entry"
	pool := &v1.Pool{}
	if err := r.Get(ctx, req.NamespacedName, pool); err != nil { // want "PoolReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !pool.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, drain(ctx, r.Client, pool)
	}
	if controllerutil.AddFinalizer(pool, poolFinalizer) { // want "PoolReconciler/finalizer-add"
		if err := r.Update(ctx, pool); err != nil {
			return ctrl.Result{}, err
		}
	}
	current, err := liveReplicas(ctx, r.Client, req.NamespacedName)
	if err != nil {
		return ctrl.Result{}, err
	}
	if current != pool.Spec.Replicas { // want "PoolReconciler/drift:compare"
		if err := resize(ctx, r.Client, pool); err != nil { // want "PoolReconciler/drift:apply"
			return ctrl.Result{}, err // want "PoolReconciler/requeue-error"
		}
	}
	return ctrl.Result{}, nil
}

// SetupWithManager registers the reconciler for Pools.
func (r *PoolReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("pool").For(&v1.Pool{}).Owns(&appsv1.Deployment{}).Complete(r)
}

// RecordedPoolReconciler is PoolReconciler testing the replicas it last
// set, remembered in memory, instead of the live Deployment's: whether
// that test compares desired with live state is not read, so with no
// comparison found the drift answer is not settled, not none, though the
// helper that scales is also the cleanup's.
type RecordedPoolReconciler struct {
	client.Client
	set map[types.NamespacedName]int32
}

// Reconcile keeps the Deployment's replicas, or drains it on deletion.
func (r *RecordedPoolReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "RecordedPoolReconciler/reconcile-entry"
	pool := &v1.Pool{}
	if err := r.Get(ctx, req.NamespacedName, pool); err != nil { // want "RecordedPoolReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !pool.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, drain(ctx, r.Client, pool)
	}
	if controllerutil.AddFinalizer(pool, poolFinalizer) { // want "RecordedPoolReconciler/finalizer-add"
		if err := r.Update(ctx, pool); err != nil {
			return ctrl.Result{}, err
		}
	}
	if r.set[req.NamespacedName] != pool.Spec.Replicas {
		if err := resize(ctx, r.Client, pool); err != nil {
			return ctrl.Result{}, err // want "RecordedPoolReconciler/requeue-error"
		}
		r.set[req.NamespacedName] = pool.Spec.Replicas
	}
	return ctrl.Result{}, nil
}

// SetupWithManager registers the reconciler for Pools.
func (r *RecordedPoolReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("recordedpool").For(&v1.Pool{}).Owns(&appsv1.Deployment{}).Complete(r)
}

// liveReplicas is a getter, handed a key: the replicas the Deployment of
// that name runs now.
func liveReplicas(ctx context.Context, c client.Client, key types.NamespacedName) (int32, error) {
	var dep appsv1.Deployment
	if err := c.Get(ctx, key, &dep); err != nil {
		return 0, err
	}
	if dep.Spec.Replicas == nil {
		return 1, nil
	}
	return *dep.Spec.Replicas, nil
}

// drain scales the Pool's Deployment to zero, then lets the Pool go.
func drain(ctx context.Context, c client.Client, pool *v1.Pool) error { // want "PoolReconciler/finalizer-cleanup" "RecordedPoolReconciler/finalizer-cleanup"
	if err := scale(ctx, c, pool, 0); err != nil {
		return err
	}
	controllerutil.RemoveFinalizer(pool, poolFinalizer) // want "PoolReconciler/finalizer-remove" "RecordedPoolReconciler/finalizer-remove"
	return c.Update(ctx, pool)
}

// resize scales the Pool's Deployment to the Pool's replicas. The cleanup
// reaches scale first: a walk of the calls from the entry meets scale
// through drain before it meets it through resize.
func resize(ctx context.Context, c client.Client, pool *v1.Pool) error {
	return scale(ctx, c, pool, pool.Spec.Replicas)
}

// scale sets the replicas of the Pool's Deployment.
func scale(ctx context.Context, c client.Client, pool *v1.Pool, n int32) error {
	var dep appsv1.Deployment
	if err := c.Get(ctx, types.NamespacedName{Namespace: pool.Namespace, Name: pool.Name}, &dep); err != nil {
		return err
	}
	dep.Spec.Replicas = &n
	return c.Update(ctx, &dep) // want "PoolReconciler/drift:apply" "RecordedPoolReconciler/drift:unsettled"
}
