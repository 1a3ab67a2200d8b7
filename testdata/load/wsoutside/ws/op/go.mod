module example.com/wsop

go 1.25
