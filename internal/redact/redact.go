// Package redact keeps secrets out of what ctrlcmp writes and prints: the
// user-info of a URL (https://user:TOKEN@host/…, a common way to hand a CI
// job its credentials) is dropped wherever a URL is recorded in a journal,
// named in a message or an annotation, or used to name a cache entry.
package redact

import "regexp"

// userinfo matches a URL's scheme and its user-info: everything between
// "scheme://" and the last "@" of the authority, which ends at the first
// "/", "?", "#" or blank (as url.Parse reads it).
var userinfo = regexp.MustCompile(`([A-Za-z][A-Za-z0-9+.\-]*://)[^/?#\s]*@`)

// URLs returns s with the user-info of every URL in it removed: a URL
// alone, or a message that names URLs. The scp-like form of an ssh address
// (git@host:path) names a login, not a secret, and is kept, as is
// everything else in s.
func URLs(s string) string {
	return userinfo.ReplaceAllString(s, "$1")
}
