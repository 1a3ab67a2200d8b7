//go:build enterprise

package main

// Enterprise exists only in a build with the enterprise tag.
func Enterprise() {}
