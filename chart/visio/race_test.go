//go:build race

package visio_test

func init() { raceEnabled = true }
