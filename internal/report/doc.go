// Package report renders what ctrlcmp found: JSON (the stable ctrlcmp/v1
// schema of docs/output.md), markdown for journals, and text tables for the
// terminal. Output is sorted and holds no timestamps, so the same input gives
// the same bytes.
package report
