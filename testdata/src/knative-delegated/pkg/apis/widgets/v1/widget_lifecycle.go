package v1

import "knative.dev/pkg/apis"

const (
	// WidgetConditionSourceReady says the source answered the last probe.
	WidgetConditionSourceReady apis.ConditionType = "SourceReady"
)

// widgetConditions is the Widget's condition set: Ready follows SourceReady.
var widgetConditions = apis.NewLivingConditionSet(WidgetConditionSourceReady)

// InitializeConditions sets every condition of the set to Unknown.
func (s *WidgetStatus) InitializeConditions() {
	widgetConditions.Manage(s).InitializeConditions()
}

// MarkSourceReady records a probe that succeeded.
func (s *WidgetStatus) MarkSourceReady() {
	widgetConditions.Manage(s).MarkTrue(WidgetConditionSourceReady)
}

// MarkSourceFailed records a probe that failed.
func (s *WidgetStatus) MarkSourceFailed(reason, message string) {
	widgetConditions.Manage(s).MarkFalse(WidgetConditionSourceReady, reason, "%s", message)
}
