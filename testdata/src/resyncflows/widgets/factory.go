// Package widgets is an informer factory of Widgets, of the shape
// client-go's generator writes (factory, group, version, kind informer,
// lister), so that its type says which objects its informers watch.
package widgets

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
)

// Widget is an object the factory's informers watch.
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
}

// DeepCopyObject implements runtime.Object.
func (w *Widget) DeepCopyObject() runtime.Object {
	c := *w
	return &c
}

// WidgetLister lists Widgets.
type WidgetLister interface {
	List(selector labels.Selector) ([]*Widget, error)
}

// WidgetInformer gives the Widgets' informer and lister.
type WidgetInformer interface {
	Informer() cache.SharedIndexInformer
	Lister() WidgetLister
}

// V1 is the group's version.
type V1 interface {
	Widgets() WidgetInformer
}

// Group is the Widgets' API group.
type Group interface {
	V1() V1
}

// SharedInformerFactory gives the informers of the group's kinds.
type SharedInformerFactory interface {
	Example() Group
	Start(stop <-chan struct{})
}

// NewSharedInformerFactory makes a factory whose informers resync on the
// period given.
func NewSharedInformerFactory(client kubernetes.Interface, resync time.Duration) SharedInformerFactory {
	return &factory{client: client, resync: resync}
}

type factory struct {
	client kubernetes.Interface
	resync time.Duration
}

func (f *factory) Example() Group                          { return f }
func (f *factory) V1() V1                                  { return f }
func (f *factory) Widgets() WidgetInformer                 { return f }
func (f *factory) Lister() WidgetLister                    { return f }
func (f *factory) Start(<-chan struct{})                   {}
func (f *factory) List(labels.Selector) ([]*Widget, error) { return nil, nil }

func (f *factory) Informer() cache.SharedIndexInformer {
	lw := &cache.ListWatch{
		ListFunc:  func(metav1.ListOptions) (runtime.Object, error) { return &metav1.List{}, nil },
		WatchFunc: func(metav1.ListOptions) (watch.Interface, error) { return watch.NewEmptyWatch(), nil },
	}
	return cache.NewSharedIndexInformer(lw, &Widget{}, f.resync, cache.Indexers{})
}
