module github.com/ctrlcmp/ctrlcmp

go 1.26.8

require (
	golang.org/x/mod v0.43.0
	golang.org/x/tools v0.52.0
)

require (
	github.com/google/go-cmp v0.7.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
)
