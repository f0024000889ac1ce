// Package cond reads the conditions of a chart's transitions, its guards:
// the text between the brackets of "push [unlocked] / swing()", or the
// cond attribute of an SCXML transition. [Parse] turns a guard into an
// [Expr], a short program a runtime evaluates every tick with a small
// stack of booleans.
//
// # Writing a guard
//
// A guard is a condition that must hold for the transition to be taken:
//
//	seesPlayer
//	hp < 10
//	seesPlayer && !tired
//	In(Alert) || (heardNoise && !In(Asleep))
//	true
//
// The package does not know what hp is or what < means. Each condition
// between the operators below is a test: a question the game answers
// with yes or no when the machine asks, and is named by its text exactly
// as written, spaces inside included ("hp < 10" and "hp<10" are two
// different tests; the spaces around a test do not count). A test can be
// anything that is not an operator: a word (seesPlayer), a comparison
// (hp != 0, ammo >= 3), a call (canSee(player)), quoted text
// (name == "x && y").
//
// # Operators
//
//   - !a is true when a is false ("not").
//   - a && b is true when both are ("and").
//   - a || b is true when either is ("or").
//   - ( ... ) groups.
//
// ! binds tightest, then &&, then ||, as in C, Lua, C# and JavaScript:
// "a || b && !c" means "a || (b && (!c))". Write parentheses when in
// doubt; "(a || b) && c" needs them. White space around operators does not
// matter: "a&&b" is "a && b".
//
// A test ends at the next && or ||, or at the ")" that closes a group
// opened before it. Parentheses inside a test must pair up, and what is
// inside them belongs to the test ("f(a && b)" is one test, "f(x) && y"
// two); so does quoted text, in ' or " ("name == 'a || b'" is one test).
// A ! means "not" only at the start of a condition: "hp != 0" is one test,
// and "!hp < 10" is "not (hp < 10)", the test hp < 10 negated.
// A single & or | is text, not an operator: "a & b" is one test.
//
// # Constants and states
//
//   - true and false are the constants, as whole words: a transition with
//     the guard true is always taken. "trueish" and "True" are tests.
//   - In(Alert) is true while the machine is in the state Alert. Write the
//     state's name as in the chart, quoted when it holds parentheses,
//     commas or quotes: In('a(1)'), In("it's"). SCXML's In('s1') is In(s1).
//     In takes one state; write In(a) && In(b) for two. In counts only
//     when "(" follows: a test may be named Inside, or even In.
//
// # Mistakes
//
// [Parse] stops at the first mistake and returns an [*Error] that says
// where it is (a byte offset and a column), what it found there and what
// it expected, and a hint for the designer:
//
//	seesPlayer &&        column 14: expected a condition after "&&", found the end of the guard
//	(a || b              column 1: found "(" that is never closed: expected ")" before the end of the guard
//	()                   column 2: expected a condition between "(" and ")", found empty parentheses
//	a)                   column 2: found ")" with no "(" to close: expected &&, || or the end of the guard
//	In()                 column 4: expected a state name between "In(" and ")", found ")"
//	player's turn        column 7: found the quote ' that is never closed: expected another ' before the end of the guard
//
// An empty guard is a mistake too: a transition without a condition has
// no guard at all, which is for the caller to decide.
//
// # Limits
//
// A guard nests at most [MaxDepth] (64) parentheses and ! inside one
// another, and holds at most [MaxTerms] (1024) tests, constants and
// operators, so that a hostile guard cannot exhaust memory or the stack:
// Parse reads any text in time linear in its length, without panicking.
//
// # Programs
//
// An [Expr] is the guard in postfix order, a slice of [Term]: "a && !b"
// is Test(a) Test(b) Not And. Test, In, True and False push a value; Not
// negates the top one; And and Or combine the two top ones. [Expr.Depth]
// is the stack it needs, at most MaxDepth+1; [Expr.Eval] is the reference
// evaluator; [Expr.Names] and [Expr.States] list the tests and states a
// guard asks about; [Expr.String] prints it canonically, and parsing that
// text again gives the same program.
package cond
