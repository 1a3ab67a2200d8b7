// Package config reads the Beacon controller's config map.
package config

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	"knative.dev/pkg/configmap"
)

// ConfigName is the name of the controller's config map.
const ConfigName = "config-beacon"

// defaultPeriod is how long a Beacon waits between two checks when the
// config map sets no period.
const defaultPeriod = 5 * time.Minute // want "trace:constant"

// Config is the controller's configuration.
type Config struct {
	// Period is how long a Beacon waits between two checks.
	Period time.Duration // want "trace:controller-field"
}

// NewConfigFromConfigMap reads the config map's "period".
func NewConfigFromConfigMap(cm *corev1.ConfigMap) (*Config, error) {
	c := &Config{Period: defaultPeriod} // want "trace:set"
	if v, ok := cm.Data["period"]; ok { // want "trace:computed"
		d, err := time.ParseDuration(v) // want "trace:computed"
		if err != nil {
			return nil, fmt.Errorf("period %q: %w", v, err)
		}
		c.Period = d // want "trace:set"
	}
	// "period-seconds" overrides "period", parsed by the dependency's
	// helper into the field through its address
	if err := configmap.Parse(cm.Data, configmap.AsDuration("period-seconds", &c.Period)); err != nil { // want "trace:computed"
		return nil, err
	}
	return c, nil
}

type cfgKey struct{}

// ToContext stores the configuration in a context.
func ToContext(ctx context.Context, c *Config) context.Context {
	return context.WithValue(ctx, cfgKey{}, c)
}

// FromContext returns the configuration a context holds.
func FromContext(ctx context.Context) *Config {
	c, _ := ctx.Value(cfgKey{}).(*Config)
	return c
}
