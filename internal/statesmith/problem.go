package statesmith

// The hints of the problems, as StateSmith's designers read them.
const (
	hintGrammar     = "write the behaviour as StateSmith reads it: order. trigger [guard] / action"
	hintElse        = "an else transition has no order of its own, and else as a trigger takes no other trigger or guard: it is tried after all the others"
	hintElseOrder   = "remove the order: an [else] transition is tried after all the others"
	hintElseHandler = "draw the else as a transition, or write the guard [else] instead"
	hintOrder       = `write the order as a number: "2. EVENT"`
	hintViaExit     = "remove the trigger, and put it on the transitions that enter the exit point"
	hintPseudo      = "remove the trigger: the transitions of a pseudo-state are taken as soon as it is entered, when their guard holds"
	hintEnterExit   = "an enter or exit behaviour belongs in the state's label, not on a transition"
	hintSpelling    = "write each event with one spelling"
	hintDo          = "remove consume_event, or draw the transition on each state inside that should take it"
	hintEnterStart  = "draw the transition to the state it should enter"
	hintChoice      = "draw one transition from it, without a label, to a choice (a diamond, or $choice), and the branches from the choice"
	hintCode        = "no code from the drawing is run: a state's entry actions come from a stencil's properties, and the game does the rest"
	hintTwice       = "give each entry or exit point of a state its own label"
	hintRegion      = "draw the $ORTHO regions inside the state that runs them in parallel"
	hintNotRegion   = "draw it inside one of the regions, or label it \"$ORTHO : NAME\" to make it a region"
	hintRegionOrder = "write the order as a number: \"$ORTHO 2 : NAME\""
	hintHistory     = "draw one transition, without a label, from the $H to the state to enter while the state has no history yet"
)
