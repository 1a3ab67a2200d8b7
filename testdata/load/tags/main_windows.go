package main

// Windows exists only on Windows: left out by its name, which no tag
// changes.
func Windows() {}
