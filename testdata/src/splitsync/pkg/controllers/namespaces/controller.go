// Package namespaces holds the controller that labels Namespaces with the
// operator's tier, on the shared work loop; Namespaces have no namespace.
package namespaces

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"

	"example.com/fixtures/splitsync/pkg/controllers/util"
)

// want-none "namespaces.Controller/finalizer-const" "namespaces.Controller/finalizer-add" "namespaces.Controller/finalizer-cleanup" "namespaces.Controller/finalizer-remove" "namespaces.Controller/condition-types" "namespaces.Controller/requeue-success" "namespaces.Controller/interval-trace"

// tierLabel is the label the controller keeps on each Namespace.
const tierLabel = "splitsync.example.com/tier"

// Controller labels Namespaces with the tier their settings give.
type Controller struct {
	client     kubernetes.Interface
	namespaces corelisters.NamespaceLister
	configMaps corelisters.ConfigMapLister
	queue      workqueue.TypedRateLimitingInterface[cache.ObjectName]
	// systemNamespace and tiersName name the ConfigMap of tiers.
	systemNamespace, tiersName string
}

// New wires the controller to the Namespace informer.
func New(client kubernetes.Interface, namespaces coreinformers.NamespaceInformer, configMaps coreinformers.ConfigMapInformer, systemNamespace, tiersName string) *Controller {
	c := &Controller{
		client:          client,
		namespaces:      namespaces.Lister(),
		configMaps:      configMaps.Lister(),
		queue:           workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[cache.ObjectName]()),
		systemNamespace: systemNamespace,
		tiersName:       tiersName,
	}
	_, _ = namespaces.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			if ref, err := cache.ObjectToName(obj); err == nil {
				c.queue.Add(ref)
			}
		},
	})
	return c
}

// Run runs the shared work loop until ctx is done, handing it a closure
// that rebuilds the object's name from the key's parts.
func (c *Controller) Run(ctx context.Context, workers int) {
	util.Run(ctx, klog.FromContext(ctx), "namespaces", time.Second, c.queue, workers, 10,
		func(ctx context.Context, _ klog.Logger, _, namespace, name string) error {
			return c.sync(ctx, cache.NewObjectName(namespace, name))
		})
}

// sync labels the Namespace ref names with its tier.
func (c *Controller) sync(ctx context.Context, ref cache.ObjectName) error { // want "namespaces.Controller/reconcile-entry"
	// The tiers are a ConfigMap read by fixed names: not the object the
	// key names.
	tiers, err := c.configMaps.ConfigMaps(c.systemNamespace).Get(c.tiersName)
	if err != nil {
		return err
	}
	ns, err := c.namespaces.Get(ref.Name) // want "namespaces.Controller/reread"
	if errors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	tier := tiers.Data[ns.Name]
	if tier == "" || ns.Labels[tierLabel] == tier { // want "namespaces.Controller/drift:compare"
		return nil
	}
	ns = ns.DeepCopy()
	if ns.Labels == nil {
		ns.Labels = map[string]string{}
	}
	ns.Labels[tierLabel] = tier
	_, err = c.client.CoreV1().Namespaces().Update(ctx, ns, metav1.UpdateOptions{}) // want "namespaces.Controller/drift:apply"
	return err
}
