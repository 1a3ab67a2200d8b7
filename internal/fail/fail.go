// Package fail carries ctrlcmp's exit codes inside errors, so that every
// failure reaching main is printed as one line and mapped to the stable exit
// code of the output contract (spec/output.md).
package fail

import (
	"context"
	"errors"
	"fmt"
)

// Exit codes of the output contract.
const (
	CodeOK       = 0 // success
	CodeFindings = 1 // check found broken or moved citations, or --check found the journal out of date
	CodeUsage    = 2 // the command line is wrong
	CodeLoad     = 3 // the tree could not be loaded or analysed
	CodeFetch    = 4 // the source could not be fetched
	CodeJournal  = 5 // the journal could not be written
	// CodeShallow is a check that met hand-typed citations whose anchors
	// are in history a shallow clone lacks, and no other problem.
	CodeShallow = 6
	// CodeInterrupted is an interrupted run (Ctrl-C), 128 + SIGINT as
	// shells report a process that SIGINT ended.
	CodeInterrupted = 130
	// CodeTerminated is a run ended by SIGTERM (a CI job cancelled, a pod
	// stopped), 128 + SIGTERM; it is cleaned up as an interrupted one.
	CodeTerminated = 143
)

// Error is an error with the exit code it should end the process with.
type Error struct {
	Code int
	Err  error
}

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// Wrap gives err the exit code code and keeps it as the cause, so that
// errors.Is and errors.As still see it (and err's own message is the whole
// message). A nil err stays nil.
func Wrap(code int, err error) error {
	if err == nil {
		return nil
	}
	return &Error{Code: code, Err: err}
}

// Usage reports a command-line mistake (exit code 2).
func Usage(format string, args ...any) error {
	return &Error{Code: CodeUsage, Err: fmt.Errorf(format, args...)}
}

// Load reports a tree that could not be loaded or analysed (exit code 3).
func Load(format string, args ...any) error {
	return &Error{Code: CodeLoad, Err: fmt.Errorf(format, args...)}
}

// Fetch reports a source that could not be fetched (exit code 4).
func Fetch(format string, args ...any) error {
	return &Error{Code: CodeFetch, Err: fmt.Errorf(format, args...)}
}

// Code returns the exit code for err: 0 for nil, CodeInterrupted when
// context.Canceled is in the chain (whatever was interrupted), the carried
// code of the outermost *Error in the chain, and CodeLoad for anything else.
func Code(err error) int {
	if err == nil {
		return CodeOK
	}
	if errors.Is(err, context.Canceled) {
		return CodeInterrupted
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return CodeLoad
}
