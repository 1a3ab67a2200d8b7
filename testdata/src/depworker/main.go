// Command mirror runs the mirror controller, on a library's worker, and
// the stamp controller, on the tree's own runner.
package main

import (
	"context"
	"flag"
	"os"
	"os/signal"
	"syscall"

	kubeinformers "k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/klog/v2"

	"example.com/fixtures/depworker/pkg/mirror"
	"example.com/fixtures/depworker/pkg/stamp"
)

func main() {
	kubeconfig := flag.String("kubeconfig", "", "Path to a kubeconfig. Only required if out-of-cluster.")
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
	m, err := mirror.New(client, factory.Core().V1().ConfigMaps())
	if err != nil {
		klog.FlushAndExit(klog.ExitFlushTimeout, 1)
	}
	st := stamp.New(client, factory.Core().V1().Secrets())
	factory.Start(ctx.Done())
	go st.Run(ctx)
	m.Run(ctx)
}
