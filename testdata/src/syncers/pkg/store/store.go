// Package store reads objects of any kind from generic listers, the way an
// operator of many kinds shares one read: the object's type is the one the
// caller asks for.
package store

import (
	"k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/cache"
)

// Informers are the listers of one resource, one per group of namespaces.
type Informers struct {
	resource schema.GroupResource
	listers  []cache.GenericLister
}

// New is the Informers of resource over listers.
func New(resource schema.GroupResource, listers ...cache.GenericLister) *Informers {
	return &Informers{resource: resource, listers: listers}
}

// Get reads the object of key from the first lister that holds it.
func (i *Informers) Get(key string) (runtime.Object, error) {
	for _, l := range i.listers {
		obj, err := l.Get(key)
		if errors.IsNotFound(err) {
			continue
		}
		if err != nil {
			return nil, err
		}
		return obj, nil
	}
	return nil, errors.NewNotFound(i.resource, key)
}

// ObjectFromKey reads a copy of the object of key as a T; the zero T when
// there is none.
func ObjectFromKey[T runtime.Object](infs *Informers, key string) (T, error) {
	var zero T
	obj, err := infs.Get(key)
	if err != nil {
		if errors.IsNotFound(err) {
			return zero, nil
		}
		return zero, err
	}
	obj = obj.DeepCopyObject()
	return obj.(T), nil
}
