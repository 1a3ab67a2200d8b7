//go:build e2e

package liverun_test

import (
	"encoding/json"
	"testing"
)

// The verdicts the e2e asserts on the fixtures' real logs, kept apart so
// that they follow the log reader: they read its JSON (objects, and each
// object's episodes when the reader cuts the life into episodes).

// readingJSON is the part of `stages --log --format json` asserted here.
type readingJSON struct {
	Objects []struct {
		Object   string
		Verdict  string
		Why      string
		Episodes []struct {
			Kind, Verdict, Why string
			From, To, Retries  int
		}
	}
}

// assertVerdicts checks the reading of a fixture's log:
//   - no object, and no episode of one, is a hot loop: event records, no-op
//     writes and failed writes bring nothing back (issue 13, causes 1-3);
//   - the object driven through the scenario settles: its last verdict,
//     or, when the reader cuts episodes, the change episodes that the
//     scenario left quiet for longer than the settle window;
//   - the write conflict shows: with episodes, one of the object's passes
//     is a retry after a failure.
func assertVerdicts(t *testing.T, jsonReading []byte, object string) {
	t.Helper()
	var rd readingJSON
	if err := json.Unmarshal(jsonReading, &rd); err != nil {
		t.Fatalf("ctrlcmp's JSON reading: %v", err)
	}
	found := false
	for _, o := range rd.Objects {
		if o.Verdict == "hot loop" {
			t.Errorf("%s: verdict hot loop (%s)", o.Object, o.Why)
		}
		for _, e := range o.Episodes {
			if e.Verdict == "hot loop" {
				t.Errorf("%s: %s episode (log lines %d-%d): hot loop (%s)", o.Object, e.Kind, e.From, e.To, e.Why)
			}
		}
		if o.Object != object {
			continue
		}
		found = true
		if len(o.Episodes) == 0 {
			if o.Verdict != "settles" {
				t.Errorf("%s: verdict %q (%s), want settles", o.Object, o.Verdict, o.Why)
			}
			continue
		}
		retries, settled := 0, 0
		for _, e := range o.Episodes {
			retries += e.Retries
			if e.Verdict == "settles" {
				settled++
			}
		}
		if retries == 0 {
			t.Errorf("%s: no pass is a retry after a failure, but the scenario provoked a 409; episodes: %+v", o.Object, o.Episodes)
		}
		if settled == 0 {
			t.Errorf("%s: no episode settles; episodes: %+v", o.Object, o.Episodes)
		}
	}
	if !found {
		t.Errorf("no reading of %s; objects read: %+v", object, rd.Objects)
	}
}
