package w3c_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/fsmforge/fsmforge/internal/w3c"
)

func ExampleConvert() {
	txml := []byte(`<scxml initial="s0" version="1.0" conf:datamodel="" xmlns="http://www.w3.org/2005/07/scxml" xmlns:conf="http://www.w3.org/2005/scxml-conformance">
<state id="s0">
  <onentry>
    <send event="timeout" conf:delay="1"/>
    <raise event="foo"/>
  </onentry>
  <transition event="foo" conf:inState="s0" conf:targetpass=""/>
  <transition event="*" conf:targetfail=""/>
</state>
<conf:pass/>
<conf:fail/>
</scxml>`)
	scxml, err := w3c.Convert(txml)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s\n", scxml)

	_, err = w3c.Convert([]byte(`<scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:conf="http://www.w3.org/2005/scxml-conformance">
<state id="s0">
  <transition conf:idVal="1=1" conf:targetpass=""/>
</state>
</scxml>`))
	fmt.Println(err)
	// Output:
	// <scxml initial="s0" version="1.0" datamodel="null" xmlns="http://www.w3.org/2005/07/scxml">
	// <state id="s0">
	//   <onentry>
	//     <send event="timeout" delay="1s"/>
	//     <raise event="foo"/>
	//   </onentry>
	//   <transition event="foo" cond="In('s0')" target="pass"/>
	//   <transition event="*" target="fail"/>
	// </state>
	// <final id="pass"/>
	// <final id="fail"/>
	// </scxml>
	// 3:15: w3c: conf:idVal="1=1" on <transition> needs a data model
}

func ExampleTests() {
	manifest, err := os.ReadFile(filepath.Join("testdata", "manifest.xml"))
	if err != nil {
		fmt.Println(err)
		return
	}
	tests, err := w3c.Tests(manifest)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, t := range tests {
		if t.ID == 415 || t.ID == 403 {
			fmt.Println(t.ID, t.Section, t.Mandatory, t.Manual, t.Files)
		}
	}
	// Output:
	// 403 3.13 true false [test403a.txml test403b.txml test403c.txml]
	// 415 3.13 true true [test415.txml]
}
