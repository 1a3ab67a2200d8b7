package controller

import (
	"context"
	"slices"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "TallyReconciler/finalizer-const" "TallyReconciler/finalizer-add" "TallyReconciler/finalizer-cleanup" "TallyReconciler/finalizer-remove"
// want-none "TallyReconciler/condition-types" "TallyReconciler/requeue-success" "TallyReconciler/interval-trace" "TallyReconciler/drift"

// tallyFinalizer holds a ServiceAccount until it is counted out.
const tallyFinalizer = "finproof.example.com/tally"

// TallyReconciler counts ServiceAccounts in and out. A helper that tests
// DeletionTimestamp computes the finalizers to keep, handed back as a
// tuple's second value; the entry writes them whole and, on deletion,
// counts the account out inline. No deletion branch works through a
// function or removes the finalizer itself, and the list written whole is
// not followed: the four finalizer rows are not settled (the test says
// so), never a certain none or a guessed removal.
type TallyReconciler struct {
	client.Client
	in, out map[string]int
}

// Reconcile keeps the finalizer while the account lives and counts it.
func (r *TallyReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "TallyReconciler/reconcile-entry"
	var sa corev1.ServiceAccount
	if err := r.Get(ctx, req.NamespacedName, &sa); err != nil { // want "TallyReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if change, finalizers := wantedFinalizers(&sa); change {
		sa.SetFinalizers(finalizers)
		if err := r.Update(ctx, &sa); err != nil {
			return ctrl.Result{}, err // want "TallyReconciler/requeue-error"
		}
		if !sa.DeletionTimestamp.IsZero() {
			r.out[sa.Namespace]++
		} else {
			r.in[sa.Namespace]++
		}
	}
	return ctrl.Result{}, nil
}

// wantedFinalizers says whether the account's finalizers change, and to
// what: the tally finalizer added while it lives, dropped once it is
// deleted.
func wantedFinalizers(sa *corev1.ServiceAccount) (bool, []string) {
	deleted := !sa.DeletionTimestamp.IsZero()
	held := slices.Contains(sa.Finalizers, tallyFinalizer)
	if !deleted && !held {
		return true, append(sa.Finalizers, tallyFinalizer)
	}
	if deleted && held {
		kept := []string{}
		for _, f := range sa.Finalizers {
			if f != tallyFinalizer {
				kept = append(kept, f)
			}
		}
		return true, kept
	}
	return false, nil
}

// SetupWithManager registers the reconciler for ServiceAccounts.
func (r *TallyReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ServiceAccount{}).Named("tally").Complete(r)
}
