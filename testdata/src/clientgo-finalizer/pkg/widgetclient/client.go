// Package widgetclient is a small typed client for Widgets built on the dynamic client.
package widgetclient

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"

	v1 "example.com/fixtures/clientgo-finalizer/api/v1"
)

// WidgetsGetter returns a namespaced WidgetInterface.
type WidgetsGetter interface {
	Widgets(namespace string) WidgetInterface
}

// WidgetInterface reads and writes Widgets in one namespace.
type WidgetInterface interface {
	Get(ctx context.Context, name string, opts metav1.GetOptions) (*v1.Widget, error)
	List(ctx context.Context, opts metav1.ListOptions) (*v1.WidgetList, error)
	Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error)
	Update(ctx context.Context, w *v1.Widget, opts metav1.UpdateOptions) (*v1.Widget, error)
	UpdateStatus(ctx context.Context, w *v1.Widget, opts metav1.UpdateOptions) (*v1.Widget, error)
}

// Clientset implements WidgetsGetter.
type Clientset struct {
	dyn dynamic.Interface
}

// New returns a Clientset backed by dyn.
func New(dyn dynamic.Interface) *Clientset {
	return &Clientset{dyn: dyn}
}

// Widgets implements WidgetsGetter.
func (c *Clientset) Widgets(namespace string) WidgetInterface {
	return &widgets{res: c.dyn.Resource(v1.Resource).Namespace(namespace)}
}

type widgets struct {
	res dynamic.ResourceInterface
}

func (w *widgets) Get(ctx context.Context, name string, opts metav1.GetOptions) (*v1.Widget, error) {
	u, err := w.res.Get(ctx, name, opts)
	if err != nil {
		return nil, err
	}
	return fromUnstructured(u)
}

func (w *widgets) List(ctx context.Context, opts metav1.ListOptions) (*v1.WidgetList, error) {
	ul, err := w.res.List(ctx, opts)
	if err != nil {
		return nil, err
	}
	out := &v1.WidgetList{}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(ul.UnstructuredContent(), out); err != nil {
		return nil, err
	}
	return out, nil
}

func (w *widgets) Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	raw, err := w.res.Watch(ctx, opts)
	if err != nil {
		return nil, err
	}
	return watch.Filter(raw, func(in watch.Event) (watch.Event, bool) {
		if u, ok := in.Object.(*unstructured.Unstructured); ok {
			obj, err := fromUnstructured(u)
			if err != nil {
				return in, false
			}
			in.Object = obj
		}
		return in, true
	}), nil
}

func (w *widgets) Update(ctx context.Context, obj *v1.Widget, opts metav1.UpdateOptions) (*v1.Widget, error) {
	u, err := toUnstructured(obj)
	if err != nil {
		return nil, err
	}
	out, err := w.res.Update(ctx, u, opts)
	if err != nil {
		return nil, err
	}
	return fromUnstructured(out)
}

func (w *widgets) UpdateStatus(ctx context.Context, obj *v1.Widget, opts metav1.UpdateOptions) (*v1.Widget, error) {
	u, err := toUnstructured(obj)
	if err != nil {
		return nil, err
	}
	out, err := w.res.UpdateStatus(ctx, u, opts)
	if err != nil {
		return nil, err
	}
	return fromUnstructured(out)
}

func toUnstructured(obj *v1.Widget) (*unstructured.Unstructured, error) {
	content, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		return nil, err
	}
	u := &unstructured.Unstructured{Object: content}
	u.SetGroupVersionKind(v1.SchemeGroupVersion.WithKind("Widget"))
	return u, nil
}

func fromUnstructured(u *unstructured.Unstructured) (*v1.Widget, error) {
	out := &v1.Widget{}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.UnstructuredContent(), out); err != nil {
		return nil, err
	}
	return out, nil
}
