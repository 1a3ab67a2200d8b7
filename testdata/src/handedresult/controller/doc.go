// Package controller holds reconcilers whose results travel before they
// are returned: a result whose interval is stored into it, then carried
// through a plan struct and a helper's second result; failure branches
// moved into helpers, one handed the pass's result to return with its
// own error, one holding two failure returns of its own; and a wait, in
// a helper, after the write its caller made.
package controller
