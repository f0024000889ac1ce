package cond

import "strconv"

// MaxDepth is how deeply [Parse] lets a guard nest: at most MaxDepth
// parentheses and ! inside one another, and at most MaxDepth conditions
// waiting for the rest of their && or ||. So evaluating an [Expr] that
// Parse returned never holds more than MaxDepth+1 values ([Expr.Depth]).
const MaxDepth = 64

// MaxTerms is the most terms an [Expr] that [Parse] returns has: tests,
// In, constants and operators together.
const MaxTerms = 1024

// Op is what a [Term] does to the stack of booleans of a running [Expr].
type Op uint8

// The operations. Test, In, True and False push a value; Not replaces the
// top value by its negation; And and Or replace the two top values (the
// left operand below, the right one on top) by their conjunction or
// disjunction.
const (
	Test  Op = iota // push the answer of the test Term.Name
	In              // push whether the machine is in state Term.Name
	Not             // !x
	And             // x && y
	Or              // x || y
	True            // push true
	False           // push false
)

var opNames = [...]string{Test: "Test", In: "In", Not: "Not", And: "And", Or: "Or", True: "True", False: "False"}

// String returns the operation's name ("Test", "And"), or "Op(9)" for a
// value that is none of them.
func (op Op) String() string {
	if int(op) < len(opNames) {
		return opNames[op]
	}
	return "Op(" + strconv.Itoa(int(op)) + ")"
}

// Term is one step of an [Expr].
type Term struct {
	Op Op

	// Name is the operand of a Test, as written in the guard (trimmed of
	// the white space around it; "hp < 10"), or the state of an In
	// (without its quotes); "" for the other operations.
	Name string

	// Off is the byte offset in the guard of what the term comes from:
	// the operand's first character, the "In", "true" or "false", the
	// "!", "&&" or "||".
	Off int
}

// Expr is a parsed guard: a program in postfix order that a runtime
// evaluates with a small stack of booleans (see [Expr.Eval]). The guard
// "a && !b" is the Expr Test(a) Test(b) Not And. An Expr that [Parse]
// returned is well formed (every operation has its operands, and one
// value is left at the end), holds at most [MaxTerms] terms and needs a
// stack of at most [MaxDepth]+1 values. The methods never panic on one
// built by hand that is not; its String is "<invalid guard>" and its
// Eval false.
type Expr []Term
