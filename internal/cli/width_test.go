package cli

import (
	"bytes"
	"testing"
)

// TestTextWidth: $COLUMNS wins when it is a positive number; otherwise
// output that is not a terminal gets the default width.
func TestTextWidth(t *testing.T) {
	for _, tc := range []struct {
		columns string
		want    int
	}{
		{"77", 77},
		{" 132 ", 132},
		{"", defaultTextWidth},
		{"wide", defaultTextWidth},
		{"0", defaultTextWidth},
		{"-5", defaultTextWidth},
	} {
		t.Setenv("COLUMNS", tc.columns)
		if got := textWidth(&bytes.Buffer{}); got != tc.want {
			t.Errorf("COLUMNS=%q: width %d, want %d", tc.columns, got, tc.want)
		}
	}
}
