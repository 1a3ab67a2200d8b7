// Command depqueue runs two controllers whose workers hand their queue to
// an organisation's helper module: the refresher's brings each ConfigMap
// back after an interval, the stamper's only forgets a key's failures.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
	"time"

	kubeinformers "k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/klog/v2"
)

// refreshInterval is how long the refresher waits before it looks at a
// ConfigMap again.
const refreshInterval = 10 * time.Minute // want "ConfigMapRefresher/trace:constant"

func main() {
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	cfg, err := clientcmd.BuildConfigFromFlags("", os.Getenv("KUBECONFIG"))
	if err != nil {
		klog.FlushAndExit(klog.ExitFlushTimeout, 1)
	}
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		klog.FlushAndExit(klog.ExitFlushTimeout, 1)
	}
	// The ConfigMaps' factory comes first: its period is not the Secrets'.
	configMapFactory := kubeinformers.NewSharedInformerFactory(client, 5*time.Minute)
	secretFactory := kubeinformers.NewSharedInformerFactory(client, 45*time.Second)

	refresher := NewConfigMapRefresher(client, configMapFactory.Core().V1().ConfigMaps(), refreshInterval)
	stamper := NewSecretStamper(client, secretFactory.Core().V1().Secrets(), configMapFactory.Core().V1().ConfigMaps())
	configMapFactory.Start(ctx.Done())
	secretFactory.Start(ctx.Done())
	go refresher.Run(ctx)
	stamper.Run(ctx)
}
