// Command stamper runs two controllers on one shared worker loop, and a
// third on a loop it registers with.
package main

import (
	"context"
	"flag"
	"os"
	"os/signal"
	"syscall"
	"time"

	kubeinformers "k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/klog/v2"

	"example.com/fixtures/sharedworker/pkg/controllers"
	"example.com/fixtures/sharedworker/pkg/loop"
)

func main() {
	kubeconfig := flag.String("kubeconfig", "", "Path to a kubeconfig. Only required if out-of-cluster.")
	refresh := flag.Duration("refresh", 10*time.Minute, "How often a ConfigMap is stamped again.") // want "ConfigMapController/trace:computed"
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
	configMaps := controllers.NewConfigMapController(client, factory.Core().V1().ConfigMaps(), *refresh)
	secrets := controllers.NewSecretController(factory.Core().V1().Secrets(), factory.Core().V1().ConfigMaps())
	accounts := loop.New(controllers.NewServiceAccountController(factory.Core().V1().ServiceAccounts(), factory.Core().V1().Secrets()))
	factory.Start(ctx.Done())
	go accounts.Run(ctx)
	go configMaps.Run(ctx)
	secrets.Run(ctx)
}
