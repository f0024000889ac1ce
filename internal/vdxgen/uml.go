package vdxgen

import "strings"

// The IDs of the masters of [UMLMasters], named as the masters of Visio's
// UML State Machine stencil (Visio 2013 and later) are.
const (
	UMLInitial        = "12" // "Initial state": a filled circle
	UMLFinal          = "13" // "Final state": a bull's-eye
	UMLState          = "14" // "State"
	UMLComposite      = "15" // "Composite state": a container named by its heading
	UMLShallowHistory = "16" // "Shallow history": a circle with H
	UMLDeepHistory    = "17" // "Deep history": a circle with H*
	UMLConnector      = "18" // "Dynamic connector"
)

// UMLHeading is the ID, in the "Composite state" master of [UMLMasters],
// of the heading that names a composite state: the master is a group, a
// container, whose first member is the heading, as in Visio's UML stencil
// (see [Composite]).
const UMLHeading = "6"

// UMLMasters returns masters named as those of Visio's UML State Machine
// stencil, with IDs UMLInitial to UMLConnector.
func UMLMasters() []Master {
	return []Master{
		{UMLInitial, "Initial state", Shape{ID: "5"}},
		{UMLFinal, "Final state", Shape{ID: "5"}},
		{UMLState, "State", Shape{ID: "5"}},
		{UMLComposite, "Composite state", Shape{ID: "5", Type: "Group", Shapes: []Shape{
			{ID: UMLHeading, Text: "Title", Shapes: []Shape{{ID: "7"}}}, // the heading, and the body below it
		}}},
		{UMLShallowHistory, "Shallow history", Shape{ID: "5", Text: "H"}},
		{UMLDeepHistory, "Deep history", Shape{ID: "5", Text: "H*"}},
		{UMLConnector, "Dynamic connector", Shape{ID: "5", OneD: true}},
	}
}

// Composite returns a shape of the UML "Composite state" master of
// [UMLMasters] (the master's ID is UMLComposite): a container, named name
// in its heading, a member whose ID is heading, that holds the shapes
// members through its Relationships cell. Give each member the
// Relationships formula [In](id), as Visio does.
func Composite(id, heading, name string, members ...string) Shape {
	return Shape{ID: id, Name: "Composite state." + id, Master: UMLComposite, Type: "Group", Relationships: Holds(members...),
		Shapes: []Shape{{ID: heading, MasterShape: UMLHeading, Text: name}}}
}

// Holds returns the Relationships formula of a container that holds the
// given shapes: "SUM(DEPENDSON(1,Sheet.2!SheetRef(),Sheet.3!SheetRef()))".
func Holds(members ...string) string { return dependsOn("1", members) }

// In returns the Relationships formula of a shape held by the given
// containers: "SUM(DEPENDSON(4,Sheet.1!SheetRef()))".
func In(containers ...string) string { return dependsOn("4", containers) }

func dependsOn(kind string, ids []string) string {
	var b strings.Builder
	b.WriteString("SUM(DEPENDSON(" + kind)
	for _, id := range ids {
		b.WriteString(",Sheet." + id + "!SheetRef()")
	}
	b.WriteString("))")
	return b.String()
}
