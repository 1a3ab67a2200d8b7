package v1

import "knative.dev/pkg/apis"

const (
	// GaugeConditionWithinLimit says the value is at most the limit.
	GaugeConditionWithinLimit apis.ConditionType = "WithinLimit" // want "condition-type:WithinLimit"
)

// gaugeConditions is the Gauge's condition set: Succeeded follows
// WithinLimit.
var gaugeConditions = apis.NewBatchConditionSet(GaugeConditionWithinLimit)

// MarkWithinLimit records a check that passed.
func (s *GaugeStatus) MarkWithinLimit() {
	gaugeConditions.Manage(s).MarkTrue(GaugeConditionWithinLimit) // want "condition-set:WithinLimit" "condition-type:Succeeded" "condition-set:Succeeded"
}

// MarkOverLimit records a check that failed.
func (s *GaugeStatus) MarkOverLimit(message string) {
	gaugeConditions.Manage(s).MarkFalse(GaugeConditionWithinLimit, "OverLimit", "%s", message)
}
