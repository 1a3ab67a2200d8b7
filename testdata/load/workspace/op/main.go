// Command op uses a sibling module of its workspace, which its go.mod
// does not require: it builds only in workspace mode.
package main

import (
	"fmt"

	"example.com/lib"
)

func main() { fmt.Println(lib.Greeting()) }
