module github.com/fsmforge/fsmforge

go 1.26.8
