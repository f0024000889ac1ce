module github.com/fsmforge/fsmforge/examples/ebiten

go 1.26.8

require (
	github.com/fsmforge/fsmforge v0.0.0
	github.com/fsmforge/fsmforge/reload/fsnotify v0.0.0
	github.com/hajimehoshi/ebiten/v2 v2.8.8
)

require (
	github.com/ebitengine/gomobile v0.0.0-20240911145611-4856209ac325 // indirect
	github.com/ebitengine/hideconsole v1.0.0 // indirect
	github.com/ebitengine/purego v0.8.0 // indirect
	github.com/fsnotify/fsnotify v1.10.1 // indirect
	github.com/jezek/xgb v1.1.1 // indirect
	golang.org/x/sync v0.8.0 // indirect
	golang.org/x/sys v0.25.0 // indirect
)

replace (
	github.com/fsmforge/fsmforge => ../..
	github.com/fsmforge/fsmforge/reload/fsnotify => ../../reload/fsnotify
)
