package w3c

// NoDataModel lists the 29 tests of the suite that need no data model, as
// the fixtures' README (../shared/fixtures/scxml-irp/README.md, "The tests
// that need no data model") groups them: 28 mandatory automatic tests and
// the mandatory manual test 415. Each is in testdata/txml as testN.txml,
// and [Convert] converts it without error. Test 436, the null data
// model's own test, is there too: uscxml's folder holds it both as
// txml/test436.txml and already converted, as null/test436.scxml (in
// testdata/null), which Convert returns as it is but for its declaration
// of the conformance namespace.
//
// Test 415 is manual: its machine starts in a top-level final state named
// "final" (the test has no pass or fail state) and must halt there
// without processing the event its <onentry> raises.
//
// The slice is the package's: do not change it.
var NoDataModel = []int{
	// States, compound, parallel, final, <initial>, onentry/onexit,
	// eventless transitions, In(), <raise>, event "*".
	144, 310, 355, 375, 377, 404, 413, 436,
	// Also an undelayed <send> to the machine itself, to #_internal, of
	// the SCXML event processor's type.
	189, 200, 348, 419, 421, 495,
	// Also a delayed <send> and <cancel>.
	185, 208, 364, 387, 399, 405, 406, 409, 411, 412, 416, 417, 423, 576,
	// Manual.
	415,
}
