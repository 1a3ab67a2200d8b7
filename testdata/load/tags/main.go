// Command tags has a part built only with the enterprise tag.
package main

func main() {}
