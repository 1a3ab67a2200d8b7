// Package controller holds reconcilers whose requeue sites are told apart
// by where their values go, not by where their returns stand: one returns
// a delegate's result after a special case of its own; one tests its
// errors the other way round (`if err == nil { return … } else {…}`); one
// hands the work's error to a helper that hands it to another; one
// dispatches to two helpers that each wait a different interval; one ends
// by returning a helper's results whole; one hands a helper's results back
// from a special case and again at its end; one copies a helper's interval
// into its own result; one retries at once when it collected errors; one
// hands back a plug-in's result, not followed, with an error that is a
// failure whatever that result holds; one serves two kinds of request, and
// re-reads its object on the way of the one it does not end with; one
// waits in a branch it moves the object out of, and in its steady state.
package controller

import (
	corev1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
	ctrl "sigs.k8s.io/controller-runtime"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "drift"

// Setup registers the thirteen reconcilers.
func Setup(mgr ctrl.Manager) error {
	if err := ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(&DelegateReconciler{Client: mgr.GetClient()}); err != nil {
		return err
	}
	if err := ctrl.NewControllerManagedBy(mgr).For(&corev1.Secret{}).Complete(&InvertedReconciler{Client: mgr.GetClient()}); err != nil {
		return err
	}
	if err := ctrl.NewControllerManagedBy(mgr).For(&corev1.ServiceAccount{}).Complete(&RecordReconciler{Client: mgr.GetClient()}); err != nil {
		return err
	}
	if err := ctrl.NewControllerManagedBy(mgr).For(&corev1.Pod{}).Complete(&ForwardReconciler{Client: mgr.GetClient()}); err != nil {
		return err
	}
	if err := ctrl.NewControllerManagedBy(mgr).For(&corev1.PersistentVolumeClaim{}).Complete(&CopyReconciler{Client: mgr.GetClient()}); err != nil {
		return err
	}
	if err := ctrl.NewControllerManagedBy(mgr).For(&corev1.Service{}).Complete(&HandBackReconciler{Client: mgr.GetClient()}); err != nil {
		return err
	}
	if err := ctrl.NewControllerManagedBy(mgr).For(&replicationController{}).Complete(&CollectReconciler{Client: mgr.GetClient()}); err != nil {
		return err
	}
	if err := ctrl.NewControllerManagedBy(mgr).For(&corev1.Endpoints{}).Complete(&StepsReconciler{Client: mgr.GetClient()}); err != nil {
		return err
	}
	if err := ctrl.NewControllerManagedBy(mgr).For(&corev1.Namespace{}).Complete(&ModeReconciler{Client: mgr.GetClient()}); err != nil {
		return err
	}
	if err := ctrl.NewControllerManagedBy(mgr).For(&corev1.Node{}).Complete(&ResyncReconciler{Client: mgr.GetClient()}); err != nil {
		return err
	}
	if err := ctrl.NewControllerManagedBy(mgr).For(&corev1.ResourceQuota{}).Complete(&ChoiceReconciler{Client: mgr.GetClient()}); err != nil {
		return err
	}
	if err := ctrl.NewControllerManagedBy(mgr).For(&storagev1.VolumeAttachment{}).Complete(&SettleReconciler{Client: mgr.GetClient()}); err != nil {
		return err
	}
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.PersistentVolume{}).Complete(&StateReconciler{Client: mgr.GetClient()})
}
