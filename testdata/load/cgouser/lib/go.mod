module example.com/cgouser/lib

go 1.26.0
