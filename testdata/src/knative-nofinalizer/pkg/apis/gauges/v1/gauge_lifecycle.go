package v1

import "knative.dev/pkg/apis"

const (
	// GaugeConditionWithinLimit says the value is at most the limit.
	GaugeConditionWithinLimit apis.ConditionType = "WithinLimit" // want "condition-type:WithinLimit"
	// GaugeConditionCalibrated says the gauge reads true; the reconciler
	// has a dependency mark it through an interface.
	GaugeConditionCalibrated apis.ConditionType = "Calibrated" // want "condition-type:Calibrated"
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

// MarkCalibrated records a calibration that passed.
func (s *GaugeStatus) MarkCalibrated() {
	gaugeConditions.Manage(s).MarkTrue(GaugeConditionCalibrated) // want "condition-set:Calibrated"
}

// MarkUncalibrated records a calibration that failed.
func (s *GaugeStatus) MarkUncalibrated(reason string) {
	gaugeConditions.Manage(s).MarkFalse(GaugeConditionCalibrated, "Uncalibrated", "%s", reason)
}
