package main

import (
	"context"
	"fmt"
	"maps"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "requeue-success" "interval-trace" "requeue-error"

const controllerAgentName = "configmap-mirror"

const (
	// mirrorAnnotation opts a ConfigMap into mirroring.
	mirrorAnnotation = "mirror.example.com/enabled"
	// mirrorSuffix is appended to the ConfigMap's name to name its Secret.
	mirrorSuffix = "-mirror"

	// SuccessSynced is the event reason used when a mirror is up to date.
	SuccessSynced = "Synced"
	// ErrResourceExists is the event reason used when a Secret of the mirror's name is not ours.
	ErrResourceExists = "ErrResourceExists"
)

// Controller mirrors annotated ConfigMaps into Secrets of the same namespace.
type Controller struct {
	kubeclientset kubernetes.Interface

	configMapLister  corelisters.ConfigMapLister
	configMapsSynced cache.InformerSynced
	secretLister     corelisters.SecretLister
	secretsSynced    cache.InformerSynced

	workqueue workqueue.TypedRateLimitingInterface[cache.ObjectName]
	recorder  record.EventRecorder

	// maxRetries is how many failed syncs of one key are retried; 0
	// retries without end.
	maxRetries int
}

// NewController returns a mirror controller fed by the given informers.
func NewController(
	ctx context.Context,
	kubeclientset kubernetes.Interface,
	configMapInformer coreinformers.ConfigMapInformer,
	secretInformer coreinformers.SecretInformer,
	maxRetries int,
) *Controller {
	logger := klog.FromContext(ctx)

	eventBroadcaster := record.NewBroadcaster(record.WithContext(ctx))
	eventBroadcaster.StartStructuredLogging(0)
	eventBroadcaster.StartRecordingToSink(&typedcorev1.EventSinkImpl{Interface: kubeclientset.CoreV1().Events("")})
	recorder := eventBroadcaster.NewRecorder(scheme.Scheme, corev1.EventSource{Component: controllerAgentName})

	c := &Controller{
		kubeclientset:    kubeclientset,
		configMapLister:  configMapInformer.Lister(),
		configMapsSynced: configMapInformer.Informer().HasSynced,
		secretLister:     secretInformer.Lister(),
		secretsSynced:    secretInformer.Informer().HasSynced,
		workqueue: workqueue.NewTypedRateLimitingQueue(
			workqueue.DefaultTypedControllerRateLimiter[cache.ObjectName](),
		),
		recorder:   recorder,
		maxRetries: maxRetries,
	}

	logger.Info("Setting up event handlers")
	_, _ = configMapInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: c.enqueueConfigMap,
		UpdateFunc: func(old, new interface{}) {
			c.enqueueConfigMap(new)
		},
	})
	_, _ = secretInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: c.handleObject, // decoy: stage-watch (secondary informer)
		UpdateFunc: func(old, new interface{}) {
			newSecret := new.(*corev1.Secret)
			oldSecret := old.(*corev1.Secret)
			if newSecret.ResourceVersion == oldSecret.ResourceVersion {
				return
			}
			c.handleObject(new)
		},
		DeleteFunc: c.handleObject,
	})
	return c
}

// Run waits for the caches, starts workers and blocks until ctx is done.
func (c *Controller) Run(ctx context.Context, workers int) error {
	defer utilruntime.HandleCrash()
	defer c.workqueue.ShutDown()
	logger := klog.FromContext(ctx)

	if ok := cache.WaitForCacheSync(ctx.Done(), c.configMapsSynced, c.secretsSynced); !ok {
		return fmt.Errorf("failed to wait for caches to sync")
	}
	logger.Info("Starting workers", "count", workers)
	for i := 0; i < workers; i++ {
		go wait.UntilWithContext(ctx, c.runWorker, time.Second)
	}
	<-ctx.Done()
	return nil
}

func (c *Controller) runWorker(ctx context.Context) {
	for c.processNextWorkItem(ctx) {
	}
}

func (c *Controller) processNextWorkItem(ctx context.Context) bool {
	objRef, shutdown := c.workqueue.Get()
	logger := klog.FromContext(ctx)
	if shutdown {
		return false
	}
	defer c.workqueue.Done(objRef)

	err := c.syncHandler(ctx, objRef)
	if err == nil {
		c.workqueue.Forget(objRef)
		logger.Info("Successfully synced", "objectName", objRef)
		return true
	}
	switch {
	case c.maxRetries == 0:
		utilruntime.HandleErrorWithContext(ctx, err, "Error syncing; requeuing for later retry", "objectReference", objRef)
		c.workqueue.AddRateLimited(objRef)
	case c.workqueue.NumRequeues(objRef) < c.maxRetries:
		utilruntime.HandleErrorWithContext(ctx, err, "Error syncing; retrying below the limit", "objectReference", objRef)
		c.workqueue.AddRateLimited(objRef)
	default:
		utilruntime.HandleErrorWithContext(ctx, err, "Error syncing; giving up", "objectReference", objRef)
	}
	return true
}

// syncHandler makes the mirror Secret of one ConfigMap match its data.
func (c *Controller) syncHandler(ctx context.Context, objectRef cache.ObjectName) error { // want "reconcile-entry"
	logger := klog.LoggerWithValues(klog.FromContext(ctx), "objectRef", objectRef)

	configMap, err := c.configMapLister.ConfigMaps(objectRef.Namespace).Get(objectRef.Name) // want "reread"
	if err != nil {
		if errors.IsNotFound(err) {
			utilruntime.HandleErrorWithContext(ctx, err, "ConfigMap referenced by item in work queue no longer exists", "objectReference", objectRef)
			return nil
		}
		return err
	}
	if configMap.Annotations[mirrorAnnotation] != "true" {
		return nil
	}

	secretName := configMap.Name + mirrorSuffix
	secrets := c.kubeclientset.CoreV1().Secrets(configMap.Namespace)
	secret, err := c.secretLister.Secrets(configMap.Namespace).Get(secretName) // decoy: reread (another object)
	if errors.IsNotFound(err) {
		secret, err = secrets.Create(ctx, newSecret(configMap), metav1.CreateOptions{})
	}
	if err != nil {
		return err
	}

	if !metav1.IsControlledBy(secret, configMap) {
		msg := fmt.Sprintf("Secret %q already exists and is not managed by ConfigMap %q", secret.Name, configMap.Name)
		c.recorder.Event(configMap, corev1.EventTypeWarning, ErrResourceExists, msg)
		return fmt.Errorf("%s", msg)
	}

	desired := newSecret(configMap)
	if !maps.EqualFunc(secret.Data, desired.Data, func(a, b []byte) bool { return string(a) == string(b) }) { // want "drift:compare"
		logger.V(4).Info("Mirror out of date, updating", "secret", klog.KObj(secret))
		secret = secret.DeepCopy()
		secret.Data = desired.Data
		if _, err := secrets.Update(ctx, secret, metav1.UpdateOptions{}); err != nil { // want "drift:apply"
			return err
		}
	}

	c.recorder.Event(configMap, corev1.EventTypeNormal, SuccessSynced, "ConfigMap mirrored successfully") // want "write-always"
	return nil
}

// enqueueConfigMap adds a ConfigMap's reference to the work queue.
func (c *Controller) enqueueConfigMap(obj interface{}) {
	objectRef, err := cache.ObjectToName(obj)
	if err != nil {
		utilruntime.HandleError(err)
		return
	}
	c.workqueue.Add(objectRef)
}

// handleObject enqueues the ConfigMap that controls a Secret, if any.
func (c *Controller) handleObject(obj interface{}) {
	object, ok := obj.(metav1.Object)
	if !ok {
		tombstone, ok := obj.(cache.DeletedFinalStateUnknown)
		if !ok {
			utilruntime.HandleError(fmt.Errorf("error decoding object, invalid type"))
			return
		}
		object, ok = tombstone.Obj.(metav1.Object)
		if !ok {
			utilruntime.HandleError(fmt.Errorf("error decoding tombstone, invalid type"))
			return
		}
	}
	ownerRef := metav1.GetControllerOf(object)
	if ownerRef == nil || ownerRef.Kind != "ConfigMap" {
		return
	}
	configMap, err := c.configMapLister.ConfigMaps(object.GetNamespace()).Get(ownerRef.Name) // decoy: reread (lister Get in an event handler)
	if err != nil {
		return
	}
	c.enqueueConfigMap(configMap)
}

// newSecret builds the desired mirror Secret of a ConfigMap.
func newSecret(configMap *corev1.ConfigMap) *corev1.Secret {
	data := make(map[string][]byte, len(configMap.Data))
	for k, v := range configMap.Data {
		data[k] = []byte(v)
	}
	return &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{
			Name:      configMap.Name + mirrorSuffix,
			Namespace: configMap.Namespace,
			OwnerReferences: []metav1.OwnerReference{
				*metav1.NewControllerRef(configMap, corev1.SchemeGroupVersion.WithKind("ConfigMap")),
			},
		},
		Type: corev1.SecretTypeOpaque,
		Data: data,
	}
}
