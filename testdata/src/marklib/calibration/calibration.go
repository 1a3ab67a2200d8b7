// Package calibration checks a gauge's calibration for any kind whose
// status can record the outcome.
package calibration

import "fmt"

// Marker records the outcome on the caller's status.
type Marker interface {
	MarkCalibrated()
	MarkUncalibrated(reason string)
}

// Check checks the offset and records the outcome through the marker.
func Check(offset int64, marker Marker) error {
	if offset != 0 {
		marker.MarkUncalibrated(fmt.Sprintf("offset %d", offset))
		return fmt.Errorf("offset %d", offset)
	}
	marker.MarkCalibrated()
	return nil
}
