// Package housekeeping holds a periodic sweep: no queue, no controller.
package housekeeping

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/klog/v2"
)

// Every checks each name that list gives with check, every period, until
// ctx is done. A failed check is logged and tried again on the next round.
func Every(ctx context.Context, period time.Duration, list func() []string, check func(string) error) {
	wait.UntilWithContext(ctx, func(ctx context.Context) {
		for _, name := range list() {
			if err := check(name); err != nil {
				klog.FromContext(ctx).Error(err, "Check failed", "name", name)
			}
		}
	}, period)
}
