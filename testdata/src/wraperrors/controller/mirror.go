// Package controller holds a reconciler whose helpers wrap their errors
// with github.com/pkg/errors, whose Wrap hands back nil for a nil error: a
// return of a wrapped error that is nil on some path into it ends a pass
// that succeeded, and one under a test that found the error set ends one
// that failed.
package controller

import (
	"context"

	"github.com/pkg/errors"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/retry"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "requeue-success" "interval-trace"

// MirrorReconciler keeps a ConfigMap mirroring each Service's ports and
// records the Service's status on every pass, from a deferred function.
type MirrorReconciler struct {
	client.Client
}

// Reconcile ensures the mirror; the deferred writeStatus runs on every
// pass past the re-read.
func (r *MirrorReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "reconcile-entry"
	svc := &corev1.Service{}
	if err := r.Get(ctx, req.NamespacedName, svc); err != nil { // want "reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	defer func() {
		_ = r.writeStatus(ctx, svc)
	}()
	if err := r.ensureMirror(ctx, svc); err != nil {
		return ctrl.Result{}, errors.Wrap(err, "ensure mirror") // want "requeue-error"
	}
	return ctrl.Result{}, nil
}

// ensureMirror refreshes the mirror when it is stale and creates it when
// it is missing: the Create runs only when the Get found nothing, for the
// branch that found the mirror ends with a wrapped error that is nil
// unless the refresh failed.
func (r *MirrorReconciler) ensureMirror(ctx context.Context, svc *corev1.Service) error {
	mirror := &corev1.ConfigMap{}
	err := r.Get(ctx, types.NamespacedName{Name: svc.Name + "-mirror", Namespace: svc.Namespace}, mirror)
	if err == nil {
		stale, err := differs(mirror, svc)
		if err != nil {
			return errors.Wrap(err, "compare mirror")
		}
		if stale { // want "drift:compare"
			mirror.Data = ports(svc)
			err = r.Update(ctx, mirror) // want "drift:apply"
		}
		return errors.Wrap(err, "refresh mirror")
	} else if !apierrors.IsNotFound(err) {
		return errors.Wrapf(err, "get mirror of %s", svc.Name)
	}
	mirror = &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: svc.Name + "-mirror", Namespace: svc.Namespace}, Data: ports(svc)}
	if err := r.Create(ctx, mirror); err != nil {
		return errors.WithMessage(err, "create mirror")
	}
	return nil
}

// writeStatus stores the Service's status on a fresh copy, retrying on
// conflicts; the update runs on every call.
func (r *MirrorReconciler) writeStatus(ctx context.Context, svc *corev1.Service) error {
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		fresh := &corev1.Service{}
		if err := r.Get(ctx, client.ObjectKeyFromObject(svc), fresh); err != nil {
			return err
		}
		fresh.Status = svc.Status
		return r.Status().Update(ctx, fresh) // want "write-always"
	})
	return errors.Wrap(err, "write status")
}

// differs reports whether the mirror's data differ from the Service's
// ports.
func differs(mirror *corev1.ConfigMap, svc *corev1.Service) (bool, error) {
	if svc.Spec.Ports == nil {
		return false, errors.New("no ports")
	}
	want := ports(svc)
	if len(want) != len(mirror.Data) {
		return true, nil
	}
	for k, v := range want {
		if mirror.Data[k] != v {
			return true, nil
		}
	}
	return false, nil
}

// ports renders a Service's ports as ConfigMap data.
func ports(svc *corev1.Service) map[string]string {
	out := map[string]string{}
	for _, p := range svc.Spec.Ports {
		out[p.Name] = p.TargetPort.String()
	}
	return out
}

// SetupWithManager registers the reconciler for Services.
func (r *MirrorReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Service{}).Complete(r)
}
