package compile

// AfterDelay is afterDelay, for the tests.
var AfterDelay = afterDelay
