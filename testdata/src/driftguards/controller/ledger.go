package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	v1 "example.com/fixtures/driftguards/api/v1"
)

// want-none "LedgerReconciler/condition-types" "LedgerReconciler/requeue-success" "LedgerReconciler/interval-trace" "LedgerReconciler/drift"
// want-none "TallyReconciler/finalizer-const" "TallyReconciler/finalizer-add" "TallyReconciler/finalizer-cleanup" "TallyReconciler/finalizer-remove" "TallyReconciler/condition-types" "TallyReconciler/requeue-success" "TallyReconciler/interval-trace" "TallyReconciler/drift"
// want-none "CountReconciler/finalizer-const" "CountReconciler/finalizer-add" "CountReconciler/finalizer-cleanup" "CountReconciler/finalizer-remove" "CountReconciler/condition-types" "CountReconciler/drift"
// want-none "ScoreReconciler/finalizer-const" "ScoreReconciler/finalizer-add" "ScoreReconciler/finalizer-cleanup" "ScoreReconciler/finalizer-remove" "ScoreReconciler/condition-types" "ScoreReconciler/requeue-error" "ScoreReconciler/requeue-success" "ScoreReconciler/interval-trace" "ScoreReconciler/drift"
// want-none "PhaseReconciler/finalizer-const" "PhaseReconciler/finalizer-add" "PhaseReconciler/finalizer-cleanup" "PhaseReconciler/finalizer-remove" "PhaseReconciler/condition-types" "PhaseReconciler/requeue-error" "PhaseReconciler/requeue-success" "PhaseReconciler/interval-trace" "PhaseReconciler/drift"

const ledgerFinalizer = "example.com/ledger" // want "LedgerReconciler/finalizer-const"

// LedgerReconciler keeps a Bundle's ledger ConfigMap. A live Bundle's pass
// runs inside `if DeletionTimestamp.IsZero() { …; return }`, its work in an
// if's init; the deletion's branch follows it. A failure of the work is
// recorded in the status before it is returned; a status write clearing
// that record is no work of the pass.
type LedgerReconciler struct {
	client.Client
}

// Reconcile records the Bundle in its ledger.
func (r *LedgerReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "LedgerReconciler/reconcile-entry"
	b := &v1.Bundle{}
	if err := r.Get(ctx, req.NamespacedName, b); err != nil { // want "LedgerReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if b.DeletionTimestamp.IsZero() {
		if !controllerutil.ContainsFinalizer(b, ledgerFinalizer) {
			controllerutil.AddFinalizer(b, ledgerFinalizer) // want "LedgerReconciler/finalizer-add"
			if err := r.Update(ctx, b); err != nil {
				return ctrl.Result{}, err
			}
		}
		if err := r.record(ctx, b); err != nil {
			b.Status.SeenVersion = "failed"
			if uerr := r.Status().Update(ctx, b); uerr != nil {
				return ctrl.Result{}, err
			}
			return ctrl.Result{}, err // want "LedgerReconciler/requeue-error"
		}
		if b.Status.SeenVersion == "failed" {
			b.Status.SeenVersion = ""
			if err := r.Status().Update(ctx, b); err != nil {
				return ctrl.Result{}, err
			}
		}
		return ctrl.Result{}, nil
	}
	if controllerutil.ContainsFinalizer(b, ledgerFinalizer) {
		if err := r.forget(ctx, b); err != nil {
			return ctrl.Result{}, err
		}
		controllerutil.RemoveFinalizer(b, ledgerFinalizer) // want "LedgerReconciler/finalizer-remove"
		if err := r.Update(ctx, b); err != nil {
			return ctrl.Result{}, err
		}
	}
	return ctrl.Result{}, nil
}

// record writes the Bundle's ledger when it is missing.
func (r *LedgerReconciler) record(ctx context.Context, b *v1.Bundle) error {
	return createMissing(ctx, r.Client, ledgerOf(b))
}

// createMissing creates a ConfigMap that is not there yet.
func createMissing(ctx context.Context, c client.Client, cm *corev1.ConfigMap) error {
	var live corev1.ConfigMap
	err := c.Get(ctx, client.ObjectKeyFromObject(cm), &live)
	if apierrors.IsNotFound(err) {
		return c.Create(ctx, cm)
	}
	return err
}

// forget deletes the Bundle's ledger.
func (r *LedgerReconciler) forget(ctx context.Context, b *v1.Bundle) error { // want "LedgerReconciler/finalizer-cleanup"
	return client.IgnoreNotFound(r.Delete(ctx, ledgerOf(b)))
}

func ledgerOf(b *v1.Bundle) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: b.Namespace, Name: b.Name + "-ledger"}, Data: b.Spec.Data}
}

// TallyReconciler counts a Bundle's keys. Its final return hands back the
// work's error, which a test above found nil there; a status write before
// it, clearing a failure's record, is no work of the pass.
type TallyReconciler struct {
	client.Client
}

// Reconcile counts the keys.
func (r *TallyReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "TallyReconciler/reconcile-entry"
	b := &v1.Bundle{}
	if err := r.Get(ctx, req.NamespacedName, b); err != nil { // want "TallyReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	err := r.count(ctx, b)
	if err != nil {
		b.Status.SeenVersion = "failed"
		if uerr := r.Status().Update(ctx, b); uerr != nil {
			return ctrl.Result{}, err
		}
		return ctrl.Result{}, err // want "TallyReconciler/requeue-error"
	}
	if b.Status.SeenVersion == "failed" {
		b.Status.SeenVersion = ""
		if err := r.Status().Update(ctx, b); err != nil {
			return ctrl.Result{}, err
		}
	}
	return ctrl.Result{}, err
}

func (r *TallyReconciler) count(ctx context.Context, b *v1.Bundle) error {
	return createMissing(ctx, r.Client, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: b.Namespace, Name: b.Name + "-tally"}, Data: b.Spec.Data})
}

// CountReconciler counts a Bundle's keys too, each outcome handed to a
// report that records it and hands back the result and the error it is
// given; at the last call that error is one a test above found nil.
type CountReconciler struct {
	client.Client
}

// Reconcile counts the keys.
func (r *CountReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "CountReconciler/reconcile-entry"
	b := &v1.Bundle{}
	if err := r.Get(ctx, req.NamespacedName, b); err != nil { // want "CountReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	err := createMissing(ctx, r.Client, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: b.Namespace, Name: b.Name + "-count"}, Data: b.Spec.Data})
	if err != nil {
		return r.report(ctx, b, ctrl.Result{}, err) // want "CountReconciler/requeue-error"
	}
	return r.report(ctx, b, ctrl.Result{RequeueAfter: countEvery}, err) // want "CountReconciler/requeue-success" "CountReconciler/trace:return"
}

// countEvery is how often a Bundle is counted again.
const countEvery = time.Hour // want "CountReconciler/trace:constant"

// report records the outcome and hands back what it is given.
func (r *CountReconciler) report(ctx context.Context, b *v1.Bundle, res ctrl.Result, err error) (ctrl.Result, error) {
	if err == nil && b.Status.SeenVersion != "counted" {
		b.Status.SeenVersion = "counted"
		if uerr := r.Status().Update(ctx, b); uerr != nil {
			return ctrl.Result{}, uerr
		}
	}
	return res, err
}

// ScoreReconciler scores a Bundle. Its result's interval is stored under a
// test of the work's error (a retry) and, where nothing set it, for the
// next pass (a wait), then handed back through a report at one return:
// which one a pass hands back the source does not settle there.
type ScoreReconciler struct {
	client.Client
}

// Reconcile scores the Bundle.
func (r *ScoreReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "ScoreReconciler/reconcile-entry"
	b := &v1.Bundle{}
	if err := r.Get(ctx, req.NamespacedName, b); err != nil { // want "ScoreReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	var result ctrl.Result
	if err := createMissing(ctx, r.Client, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: b.Namespace, Name: b.Name + "-score"}, Data: b.Spec.Data}); err != nil {
		result.RequeueAfter = time.Minute
	}
	if result.IsZero() {
		result.RequeueAfter = countEvery
	}
	return r.finish(ctx, b, result)
}

// finish records the score and hands back the result it is given.
func (r *ScoreReconciler) finish(ctx context.Context, b *v1.Bundle, result ctrl.Result) (ctrl.Result, error) {
	if b.Status.SeenVersion != "scored" {
		b.Status.SeenVersion = "scored"
		if err := r.Status().Update(ctx, b); err != nil {
			return ctrl.Result{}, err
		}
	}
	return result, nil
}

// PhaseReconciler hands each pass, by the Bundle's recorded phase, to the
// function for that phase, and ends in a return of no work: which phase's
// failure is the main work's the source does not say.
type PhaseReconciler struct {
	client.Client
}

// Reconcile dispatches on the phase.
func (r *PhaseReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "PhaseReconciler/reconcile-entry"
	b := &v1.Bundle{}
	if err := r.Get(ctx, req.NamespacedName, b); err != nil { // want "PhaseReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if b.Status.SeenVersion == "" {
		return r.start(ctx, b)
	}
	if b.Status.SeenVersion == "started" {
		return r.finishPhase(ctx, b)
	}
	return ctrl.Result{}, nil
}

func (r *PhaseReconciler) start(ctx context.Context, b *v1.Bundle) (ctrl.Result, error) {
	if err := createMissing(ctx, r.Client, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: b.Namespace, Name: b.Name + "-phase"}, Data: b.Spec.Data}); err != nil {
		return ctrl.Result{}, err
	}
	b.Status.SeenVersion = "started"
	return ctrl.Result{}, r.Status().Update(ctx, b)
}

func (r *PhaseReconciler) finishPhase(ctx context.Context, b *v1.Bundle) (ctrl.Result, error) {
	if err := r.Delete(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: b.Namespace, Name: b.Name + "-phase"}}); client.IgnoreNotFound(err) != nil {
		return ctrl.Result{}, err
	}
	b.Status.SeenVersion = "done"
	return ctrl.Result{}, r.Status().Update(ctx, b)
}

// SetupWithManager registers the five reconcilers for Bundles.
func (r *LedgerReconciler) SetupWithManager(mgr ctrl.Manager) error {
	if err := ctrl.NewControllerManagedBy(mgr).Named("ledger").For(&v1.Bundle{}).Complete(r); err != nil {
		return err
	}
	if err := ctrl.NewControllerManagedBy(mgr).Named("tally").For(&v1.Bundle{}).Complete(&TallyReconciler{Client: r.Client}); err != nil {
		return err
	}
	if err := ctrl.NewControllerManagedBy(mgr).Named("count").For(&v1.Bundle{}).Complete(&CountReconciler{Client: r.Client}); err != nil {
		return err
	}
	if err := ctrl.NewControllerManagedBy(mgr).Named("score").For(&v1.Bundle{}).Complete(&ScoreReconciler{Client: r.Client}); err != nil {
		return err
	}
	return ctrl.NewControllerManagedBy(mgr).Named("phase").For(&v1.Bundle{}).Complete(&PhaseReconciler{Client: r.Client})
}
