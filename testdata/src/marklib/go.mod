module example.com/fixtures/marklib

go 1.26.0
