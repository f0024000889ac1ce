package visio

// SetPartWindow sets how many bytes of a part's text the parser holds at a
// time, for the tests; the function it returns restores the default.
func SetPartWindow(n int) (restore func()) {
	old := partWindow
	partWindow = n
	return func() { partWindow = old }
}
