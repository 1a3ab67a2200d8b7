// Package elsewhere lies outside the workspace's directory.
package elsewhere
