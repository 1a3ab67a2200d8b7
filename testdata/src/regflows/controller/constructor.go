package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/source"
)

// The reconcilers below are made by constructors that return them as a
// reconcile.Reconciler, and handed on through the tree's own layers
// before they reach controller.New.

// ServiceReconciler labels Services; the watches that say so are made in
// the helper it is handed to.
type ServiceReconciler struct {
	client.Client
}

// AddServices registers the Service controller: its constructor's result
// is handed to add.
func AddServices(mgr manager.Manager) error {
	return add(mgr, "services", NewServiceReconciler(mgr))
}

// NewServiceReconciler makes the Service reconciler.
func NewServiceReconciler(mgr manager.Manager) reconcile.Reconciler {
	return &ServiceReconciler{Client: mgr.GetClient()}
}

// add registers a reconciler for Services, which own Endpoints.
func add(mgr manager.Manager, name string, r reconcile.Reconciler) error {
	c, err := controller.New(name, mgr, controller.Options{Reconciler: r})
	if err != nil {
		return err
	}
	if err := c.Watch(source.Kind(mgr.GetCache(), &corev1.Service{}, &handler.TypedEnqueueRequestForObject[*corev1.Service]{})); err != nil {
		return err
	}
	return c.Watch(source.Kind(mgr.GetCache(), &corev1.Endpoints{},
		handler.TypedEnqueueRequestForOwner[*corev1.Endpoints](mgr.GetScheme(), mgr.GetRESTMapper(), &corev1.Service{}, handler.OnlyControllerOwner())))
}

// Reconcile labels one Service once.
func (r *ServiceReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) { // want "ServiceReconciler/reconcile-entry"
	// A decoy: the Endpoints of the same name, read by the key first.
	var ep corev1.Endpoints
	if err := r.Get(ctx, req.NamespacedName, &ep); client.IgnoreNotFound(err) != nil {
		return reconcile.Result{}, err
	}
	var svc corev1.Service
	if err := r.Get(ctx, req.NamespacedName, &svc); err != nil { // want "ServiceReconciler/reread"
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	if svc.Labels[seenLabel] == "" { // want "ServiceReconciler/drift:compare"
		svc.Labels = map[string]string{seenLabel: "yes"}
		if err := r.Update(ctx, &svc); err != nil { // want "ServiceReconciler/drift:apply"
			return reconcile.Result{}, err // want "ServiceReconciler/requeue-error"
		}
	}
	return reconcile.Result{}, nil
}

// EndpointsReconciler labels Endpoints; its constructor calls another
// that returns it as a reconcile.Reconciler, and a helper of the helper
// registers it.
type EndpointsReconciler struct {
	client.Client
}

// AddEndpoints registers the Endpoints controller.
func AddEndpoints(mgr manager.Manager) error {
	return addWatching(mgr, newEndpointsReconciler(mgr))
}

// newEndpointsReconciler makes the Endpoints reconciler.
func newEndpointsReconciler(mgr manager.Manager) reconcile.Reconciler {
	return buildEndpointsReconciler(mgr.GetClient())
}

// buildEndpointsReconciler makes the Endpoints reconciler from a client.
func buildEndpointsReconciler(c client.Client) reconcile.Reconciler {
	return &EndpointsReconciler{Client: c}
}

// addWatching registers a reconciler for Endpoints through registerFor.
func addWatching(mgr manager.Manager, r reconcile.Reconciler) error {
	return registerFor(mgr, "endpoints", r)
}

// registerFor registers a reconciler for Endpoints.
func registerFor(mgr manager.Manager, name string, r reconcile.Reconciler) error {
	c, err := controller.New(name, mgr, controller.Options{Reconciler: r})
	if err != nil {
		return err
	}
	return c.Watch(source.Kind(mgr.GetCache(), &corev1.Endpoints{}, &handler.TypedEnqueueRequestForObject[*corev1.Endpoints]{}))
}

// Reconcile labels one Endpoints once.
func (r *EndpointsReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) { // want "EndpointsReconciler/reconcile-entry"
	var ep corev1.Endpoints
	if err := r.Get(ctx, req.NamespacedName, &ep); err != nil { // want "EndpointsReconciler/reread"
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	if ep.Labels[seenLabel] == "" { // want "EndpointsReconciler/drift:compare"
		ep.Labels = map[string]string{seenLabel: "yes"}
		if err := r.Update(ctx, &ep); err != nil { // want "EndpointsReconciler/drift:apply"
			return reconcile.Result{}, err // want "EndpointsReconciler/requeue-error"
		}
	}
	return reconcile.Result{}, nil
}

// NodeReconciler labels Nodes; its constructor's result is kept in a field
// of a registration struct before it is registered.
type NodeReconciler struct {
	client.Client
}

// registration is a controller to register: its name and reconciler.
type registration struct {
	name       string
	reconciler reconcile.Reconciler
}

// AddNodes registers the Node controller.
func AddNodes(mgr manager.Manager) error {
	reg := registration{name: "nodes"}
	reg.reconciler = NewNodeReconciler(mgr)
	c, err := controller.New(reg.name, mgr, controller.Options{Reconciler: reg.reconciler})
	if err != nil {
		return err
	}
	return c.Watch(source.Kind(mgr.GetCache(), &corev1.Node{}, &handler.TypedEnqueueRequestForObject[*corev1.Node]{}))
}

// NewNodeReconciler makes the Node reconciler.
func NewNodeReconciler(mgr manager.Manager) reconcile.Reconciler {
	return &NodeReconciler{Client: mgr.GetClient()}
}

// Reconcile labels one Node once.
func (r *NodeReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) { // want "NodeReconciler/reconcile-entry"
	var node corev1.Node
	if err := r.Get(ctx, req.NamespacedName, &node); err != nil { // want "NodeReconciler/reread"
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	if node.Labels[seenLabel] == "" { // want "NodeReconciler/drift:compare"
		node.Labels = map[string]string{seenLabel: "yes"}
		if err := r.Update(ctx, &node); err != nil { // want "NodeReconciler/drift:apply"
			return reconcile.Result{}, err // want "NodeReconciler/requeue-error"
		}
	}
	return reconcile.Result{}, nil
}

// UnusedReconciler is a decoy: a reconciler no registration hands on.
type UnusedReconciler struct {
	client.Client
}

// NewUnusedReconciler makes the decoy, which nothing calls.
func NewUnusedReconciler(mgr manager.Manager) reconcile.Reconciler {
	return &UnusedReconciler{Client: mgr.GetClient()}
}

// Reconcile deletes the Node it is given.
func (r *UnusedReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	var node corev1.Node
	if err := r.Get(ctx, req.NamespacedName, &node); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	return reconcile.Result{}, r.Delete(ctx, &node)
}

// LimitRangeReconciler labels LimitRanges; it is kept in a field of a
// registrar, whose method registers it.
type LimitRangeReconciler struct {
	client.Client
}

// registrar registers the reconciler it holds.
type registrar struct {
	mgr        manager.Manager
	reconciler reconcile.Reconciler
}

// AddLimitRanges registers the LimitRange controller through a registrar.
func AddLimitRanges(mgr manager.Manager) error {
	reg := &registrar{mgr: mgr}
	reg.reconciler = &LimitRangeReconciler{Client: mgr.GetClient()}
	return reg.register("limitranges")
}

// register registers the reconciler the registrar holds, for LimitRanges.
func (g *registrar) register(name string) error {
	c, err := controller.New(name, g.mgr, controller.Options{Reconciler: g.reconciler})
	if err != nil {
		return err
	}
	return c.Watch(source.Kind(g.mgr.GetCache(), &corev1.LimitRange{}, &handler.TypedEnqueueRequestForObject[*corev1.LimitRange]{}))
}

// Reconcile labels one LimitRange once.
func (r *LimitRangeReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) { // want "LimitRangeReconciler/reconcile-entry"
	var lr corev1.LimitRange
	if err := r.Get(ctx, req.NamespacedName, &lr); err != nil { // want "LimitRangeReconciler/reread"
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	if lr.Labels[seenLabel] == "" { // want "LimitRangeReconciler/drift:compare"
		lr.Labels = map[string]string{seenLabel: "yes"}
		if err := r.Update(ctx, &lr); err != nil { // want "LimitRangeReconciler/drift:apply"
			return reconcile.Result{}, err // want "LimitRangeReconciler/requeue-error"
		}
	}
	return reconcile.Result{}, nil
}
