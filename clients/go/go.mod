module github.com/innkeep/innkeep-go

go 1.23
