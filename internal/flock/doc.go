// Package flock takes advisory, exclusive locks on open files, so that
// ctrlcmp processes sharing a cache entry or a journal take turns: flock(2)
// on Unix, LockFileEx on Windows. A lock belongs to the open file, so two
// opens in one process exclude each other too.
package flock
