module example.com/op

go 1.26.0
