// Command repmiss imports two packages of a module replaced by a
// directory that does not exist.
package main

import (
	"example.com/forked"
	"example.com/forked/sub"
)

func main() { forked.F(); sub.G() }
