package v1

import "knative.dev/pkg/apis"

const (
	// BeaconConditionWithinLimit says the value is at most the limit.
	BeaconConditionWithinLimit apis.ConditionType = "WithinLimit" // want "condition-type:WithinLimit"
)

// beaconConditions is the Beacon's condition set: Succeeded follows
// WithinLimit.
var beaconConditions = apis.NewBatchConditionSet(BeaconConditionWithinLimit)

// MarkWithinLimit records a check that passed.
func (s *BeaconStatus) MarkWithinLimit() {
	beaconConditions.Manage(s).MarkTrue(BeaconConditionWithinLimit) // want "condition-set:WithinLimit" "condition-type:Succeeded" "condition-set:Succeeded"
}

// MarkOverLimit records a check that failed.
func (s *BeaconStatus) MarkOverLimit(message string) {
	beaconConditions.Manage(s).MarkFalse(BeaconConditionWithinLimit, "OverLimit", "%s", message)
}
