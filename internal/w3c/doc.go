// Package w3c prepares the W3C's SCXML 1.0 conformance tests (the
// Implementation Report Plan's tests) to be run against fsmforge: it
// turns a test into an SCXML document that fsmforge's SCXML importer
// reads and its runtime executes. A test passes when the machine halts in
// its top-level final state pass; it fails in fail.
//
// The W3C writes each test as a .txml file: an SCXML document whose parts
// that depend on the data model are placeholders of the conformance
// namespace ([ConfNamespace], prefix conf), which each implementation
// converts for its own data model (uscxml uses one XSLT stylesheet per
// data model). fsmforge has no data model: SCXML's null data model, whose
// conditions are In(state) (and, for fsmforge, the names of tests, true
// and false). [NoDataModel] lists the 29 tests that need no more.
//
// # Sections
//
//   - Converting: [Convert] replaces the placeholders of a .txml file for
//     the null data model and copies the rest byte for byte; it reports
//     the placeholders that need a data model.
//   - The manifest: [Tests] reads the suite's manifest.xml into [Test]
//     values: number, mandatory or optional, manual or automatic, the
//     specification's section, the file names.
//   - The tests: [NoDataModel] lists the tests the null data model can
//     run, grouped as the fixtures' README groups them.
//
// # Test data
//
// testdata/txml holds the 29 tests' .txml files, testdata/null uscxml's
// converted test436.scxml, and testdata/manifest.xml the whole manifest,
// copied byte for byte from uscxml (tklab-tud/uscxml, test/w3c/, commit
// 11013b76a02d1534c7375a70f77efd2463798ddd); testdata/README.md holds
// their licence, the W3C's 3-clause BSD licence for test suites.
// testdata/scxml holds Convert's output for each, as golden files
// (go test -update rewrites them), and testdata/FEATURES.md lists which
// SCXML elements, attributes and features each converted test uses
// (go test -update rewrites it too). The tests check that the copies are
// those of the shared fixtures (../shared/fixtures/scxml-irp) when that
// folder is there.
//
// # Numbering
//
// The manifest is the 2014 one: 231 tests, whose sections are numbered
// as then (C.1 the minimal profile, the null data model; C.2 ECMAScript;
// C.3 XPath; D.1 the SCXML event I/O processor; D.2 basic HTTP). The
// final suite of March 2015 has 200: it drops the 30 XPath tests and test
// 288, and renumbers the appendices (C.1 becomes B.1, C.2 B.2, D.1 C.1,
// D.2 C.2). [Test.Section] is the manifest's.
package w3c
