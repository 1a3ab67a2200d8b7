// Package lib is a dependency whose export data differs with cgo: os/user
// has cgo files, so a build with cgo on and one with it off share no
// entry in the build cache.
package lib

import "os/user"

// Owner is the name of the user who runs the process.
func Owner() (*user.User, error) { return user.Current() }
