package v1

import (
	corev1 "k8s.io/api/core/v1"
	"knative.dev/pkg/apis"
)

const (
	// GaugeConditionWithinLimit says the value is at most the limit.
	GaugeConditionWithinLimit apis.ConditionType = "WithinLimit" // want "condition-type:WithinLimit"

	// GaugeConditionStale says the reading is older than the Gauge's
	// timeout: not a type of the set, set by a literal.
	GaugeConditionStale apis.ConditionType = "Stale"

	// GaugeConditionArchived is a type of the set nothing sets (decoy: a
	// type of the set is not a type the controller sets).
	GaugeConditionArchived apis.ConditionType = "Archived"
)

// gaugeConditions is the Gauge's condition set: Succeeded follows
// WithinLimit and Archived.
var gaugeConditions = apis.NewBatchConditionSet(GaugeConditionWithinLimit, GaugeConditionArchived)

// MarkRunning says a check is under way: Succeeded is Unknown (its True
// set, marking the dependents, is the site).
func (s *GaugeStatus) MarkRunning(reason, message string) {
	gaugeConditions.Manage(s).MarkUnknown(apis.ConditionSucceeded, reason, "%s", message)
}

// MarkWithinLimit records a check that passed.
func (s *GaugeStatus) MarkWithinLimit() {
	gaugeConditions.Manage(s).MarkTrue(GaugeConditionWithinLimit) // want "condition-set:WithinLimit" "condition-type:Succeeded" "condition-set:Succeeded"
}

// MarkOverLimit records a check that failed.
func (s *GaugeStatus) MarkOverLimit(message string) {
	gaugeConditions.Manage(s).MarkFalse(GaugeConditionWithinLimit, "OverLimit", "%s", message)
}

// SetCondition sets a condition the caller builds (decoy: setting a type
// outside the set leaves Succeeded as it is).
func (s *GaugeStatus) SetCondition(c *apis.Condition) {
	if c != nil {
		gaugeConditions.Manage(s).SetCondition(*c)
	}
}

// MarkStale records a reading older than the timeout.
func (s *GaugeStatus) MarkStale(message string) {
	s.SetCondition(&apis.Condition{
		Type:    GaugeConditionStale,
		Status:  corev1.ConditionTrue,
		Reason:  "Stale",
		Message: message,
	})
}
