// Package lib is a module of the workspace.
package lib

// Greeting is what op prints.
func Greeting() string { return "hello" }
