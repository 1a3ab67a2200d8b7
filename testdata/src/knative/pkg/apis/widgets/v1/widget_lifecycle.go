package v1

import (
	"knative.dev/pkg/apis"
	duckv1 "knative.dev/pkg/apis/duck/v1"
)

const (
	// WidgetConditionSourceReady says the source answered the last probe.
	WidgetConditionSourceReady apis.ConditionType = "SourceReady" // want "condition-type:SourceReady"
)

// widgetConditions is the Widget's condition set: Ready follows SourceReady.
var widgetConditions = apis.NewLivingConditionSet(WidgetConditionSourceReady)

// InitializeConditions sets every condition of the set to Unknown.
func (s *WidgetStatus) InitializeConditions() {
	widgetConditions.Manage(s).InitializeConditions()
}

// GetConditionSet is the Widget's condition set.
func (s *WidgetStatus) GetConditionSet() apis.ConditionSet {
	return widgetConditions
}

// MarkSourceReady records a probe that succeeded, through the set's
// getter.
func (s *WidgetStatus) MarkSourceReady() {
	s.GetConditionSet().Manage(s).MarkTrue(WidgetConditionSourceReady) // want "condition-set:SourceReady" "condition-type:Ready" "condition-set:Ready"
}

// MarkSourceFailed records a probe that failed.
func (s *WidgetStatus) MarkSourceFailed(reason, message string) {
	s.GetConditionSet().Manage(s).MarkFalse(WidgetConditionSourceReady, reason, "%s", message)
}

// probeConditionReachable is a condition of the probe's own scratch
// status, which MarkProbed translates into SourceReady: never a condition
// of a Widget.
const probeConditionReachable apis.ConditionType = "Reachable"

var probeConditions = apis.NewLivingConditionSet(probeConditionReachable)

// probeStatus is a probe's outcome as a status of its own (decoy: its
// conditions are not the Widget's).
func probeStatus(err error) *duckv1.Status {
	s := &duckv1.Status{}
	if err != nil {
		probeConditions.Manage(s).MarkFalse(probeConditionReachable, "ProbeFailed", "%v", err)
	} else {
		probeConditions.Manage(s).MarkTrue(probeConditionReachable)
	}
	return s
}

// MarkProbed records a probe's outcome.
func (s *WidgetStatus) MarkProbed(err error) {
	if probeStatus(err).GetCondition(apis.ConditionReady).IsTrue() {
		s.MarkSourceReady()
		return
	}
	s.MarkSourceFailed("ProbeFailed", err.Error())
}
