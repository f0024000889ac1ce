module github.com/fsmforge/fsmforge/reload/fsnotify

go 1.26.8

require (
	github.com/fsmforge/fsmforge v0.0.0
	github.com/fsnotify/fsnotify v1.10.1
)

require golang.org/x/sys v0.13.0 // indirect

replace github.com/fsmforge/fsmforge => ../..
