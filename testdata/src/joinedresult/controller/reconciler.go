// Package controller holds a reconciler whose entry hands back the result
// an inner function made, together with that function's other results,
// after joining the status write's error to the inner error: the requeue
// sites are the inner function's returns, handed back through the entry.
package controller

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types"

const (
	// settleDelay is how long the reconciler waits for a copy it just
	// made.
	settleDelay = 3 * time.Second
	// recheck is how often a complete copy is checked again.
	recheck = 10 * time.Minute // want "trace:constant"
)

// MirrorReconciler copies a ConfigMap's keys into a Secret of the same
// name and records the keys it copied in an annotation.
type MirrorReconciler struct {
	client.Client
}

// Setup registers the reconciler.
func Setup(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(&MirrorReconciler{Client: mgr.GetClient()})
}

// Reconcile reads the ConfigMap, mirrors it and records what it mirrored,
// whatever mirror made of it.
func (r *MirrorReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "reconcile-entry"
	cm := &corev1.ConfigMap{}
	if err := r.Get(ctx, req.NamespacedName, cm); err != nil { // want "reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	res, keys, mirrorErr := r.mirror(ctx, cm)
	if err := r.record(ctx, cm, keys); err != nil {
		mirrorErr = errors.Join(mirrorErr, err)
	}
	return res, mirrorErr
}

// mirror makes the Secret when it is missing and waits for it; a present
// Secret is checked, its keys are handed back and it is checked again
// later.
func (r *MirrorReconciler) mirror(ctx context.Context, cm *corev1.ConfigMap) (ctrl.Result, []string, error) {
	if len(cm.Data) == 0 {
		return ctrl.Result{}, nil, fmt.Errorf("configmap %s has no data", cm.Name)
	}
	sec := &corev1.Secret{}
	err := r.Get(ctx, client.ObjectKeyFromObject(cm), sec)
	if apierrors.IsNotFound(err) {
		sec = &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: cm.Namespace, Name: cm.Name}, StringData: cm.Data}
		if err := r.Create(ctx, sec); err != nil {
			return ctrl.Result{}, nil, err
		}
		return ctrl.Result{RequeueAfter: settleDelay}, nil, nil // decoy: requeue-success (a wait for the copy just made)
	}
	if err != nil {
		return ctrl.Result{}, nil, err
	}
	if err := r.check(cm, sec); err != nil {
		return ctrl.Result{}, nil, err // want "requeue-error"
	}
	keys := make([]string, 0, len(sec.Data))
	for k := range sec.Data {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return ctrl.Result{RequeueAfter: recheck}, keys, nil // want "requeue-success" "trace:return"
}

// check says whether the Secret holds every key of the ConfigMap.
func (r *MirrorReconciler) check(cm *corev1.ConfigMap, sec *corev1.Secret) error {
	for k := range cm.Data {
		if _, ok := sec.Data[k]; !ok {
			return fmt.Errorf("secret %s lacks key %s", sec.Name, k)
		}
	}
	return nil
}

// record writes the copied keys into the ConfigMap's annotation.
func (r *MirrorReconciler) record(ctx context.Context, cm *corev1.ConfigMap, keys []string) error {
	if keys == nil {
		return nil
	}
	v := fmt.Sprint(keys)
	if cm.Annotations["mirrored"] == v { // want "drift:compare"
		return nil
	}
	if cm.Annotations == nil {
		cm.Annotations = map[string]string{}
	}
	cm.Annotations["mirrored"] = v
	return r.Update(ctx, cm) // want "drift:apply"
}
