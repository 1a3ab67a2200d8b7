// Command tree prints who runs it, through a dependency outside the tree.
package main

import (
	"fmt"

	"example.com/cgouser/lib"
)

func main() {
	u, err := lib.Owner()
	fmt.Println(u, err)
}
