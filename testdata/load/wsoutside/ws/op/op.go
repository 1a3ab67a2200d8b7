// Package op is a module of a workspace that also uses a directory outside
// its own.
package op

// Name is the operator's name.
const Name = "op"
