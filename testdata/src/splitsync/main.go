// Command splitsync runs four controllers of four packages on one shared
// work loop, and a periodic sweep that is no controller.
package main

import (
	"context"
	"flag"
	"os"
	"os/signal"
	"syscall"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	kubeinformers "k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2"

	"example.com/fixtures/splitsync/pkg/controllers/configmaps"
	"example.com/fixtures/splitsync/pkg/controllers/namespaces"
	"example.com/fixtures/splitsync/pkg/controllers/secrets"
	"example.com/fixtures/splitsync/pkg/controllers/services"
	"example.com/fixtures/splitsync/pkg/housekeeping"
)

// runner is what each controller gives the command.
type runner interface {
	Run(ctx context.Context, workers int)
}

// auditor checks that a Namespace still exists: the sweep's check, not a
// controller's sync.
type auditor struct {
	namespaces corelisters.NamespaceLister
}

func (a auditor) names() []string {
	list, err := a.namespaces.List(labels.Everything())
	if err != nil {
		return nil
	}
	var out []string
	for _, ns := range list {
		out = append(out, ns.Name)
	}
	return out
}

func (a auditor) check(name string) error {
	_, err := a.namespaces.Get(name)
	return err
}

// setup builds every controller of the operator.
func setup(client kubernetes.Interface, factory kubeinformers.SharedInformerFactory, systemNamespace string, resync time.Duration) []runner {
	broadcaster := record.NewBroadcaster()
	broadcaster.StartRecordingToSink(&typedcorev1.EventSinkImpl{Interface: client.CoreV1().Events("")})
	recorder := broadcaster.NewRecorder(scheme.Scheme, corev1.EventSource{Component: "splitsync"})
	core := factory.Core().V1()
	return []runner{
		configmaps.New(client, core.ConfigMaps(), systemNamespace, resync),
		secrets.New(client, core.Secrets(), recorder, "ca-bundle"),
		namespaces.New(client, core.Namespaces(), core.ConfigMaps(), systemNamespace, "tiers"),
		services.New(core.Services(), "strict"),
	}
}

func main() {
	kubeconfig := flag.String("kubeconfig", "", "Path to a kubeconfig. Only required if out-of-cluster.")
	workers := flag.Int("workers", 2, "Workers per controller.")
	systemNamespace := flag.String("system-namespace", "splitsync-system", "Namespace of the operator's settings.")
	resync := flag.Duration("resync", 10*time.Minute, "How often a ConfigMap is stamped again.") // want "configmaps.Controller/trace:computed" "configmaps.Controller/trace:constant"
	flag.Parse()

	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	cfg, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		klog.FlushAndExit(klog.ExitFlushTimeout, 1)
	}
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		klog.FlushAndExit(klog.ExitFlushTimeout, 1)
	}
	factory := kubeinformers.NewSharedInformerFactory(client, 0)
	controllers := setup(client, factory, *systemNamespace, *resync)
	audit := auditor{namespaces: factory.Core().V1().Namespaces().Lister()}
	factory.Start(ctx.Done())
	for _, c := range controllers {
		go c.Run(ctx, *workers)
	}
	go housekeeping.Every(ctx, time.Hour, audit.names, audit.check)
	<-ctx.Done()
}
