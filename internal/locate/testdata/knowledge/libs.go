// Package knowledge imports every library package the knowledge table of
// internal/locate names, at the versions its go.mod pins (those of
// knowledgeChecked), so that knowledge_test.go can resolve each entry.
package knowledge

import (
	_ "bytes"
	_ "context"
	_ "maps"
	_ "reflect"
	_ "slices"
	_ "time"

	_ "github.com/fluxcd/pkg/apis/meta"
	_ "github.com/fluxcd/pkg/runtime/conditions"
	_ "github.com/fluxcd/pkg/runtime/jitter"
	_ "github.com/fluxcd/pkg/runtime/patch"
	_ "github.com/fluxcd/pkg/ssa"
	_ "github.com/google/go-cmp/cmp"
	_ "github.com/manifestival/manifestival"
	_ "k8s.io/apimachinery/pkg/api/equality"
	_ "k8s.io/apimachinery/pkg/api/meta"
	_ "k8s.io/apimachinery/pkg/apis/meta/v1"
	_ "k8s.io/apimachinery/pkg/util/sets"
	_ "k8s.io/apimachinery/third_party/forked/golang/reflect"
	_ "k8s.io/client-go/informers"
	_ "k8s.io/client-go/tools/cache"
	_ "k8s.io/client-go/tools/events"
	_ "k8s.io/client-go/tools/record"
	_ "k8s.io/client-go/util/workqueue"
	_ "k8s.io/utils/clock"
	_ "knative.dev/pkg/apis"
	_ "knative.dev/pkg/controller"
	_ "knative.dev/pkg/reconciler"
	_ "sigs.k8s.io/controller-runtime/pkg/builder"
	_ "sigs.k8s.io/controller-runtime/pkg/cache"
	_ "sigs.k8s.io/controller-runtime/pkg/client"
	_ "sigs.k8s.io/controller-runtime/pkg/controller"
	_ "sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	_ "sigs.k8s.io/controller-runtime/pkg/manager"
	_ "sigs.k8s.io/controller-runtime/pkg/reconcile"
	_ "sigs.k8s.io/controller-runtime/pkg/source"
)
