// Package guardgen is a guard that uses any-state transitions, push and
// return, and tests with values, as generated Go code: guard_fsm.go is
// what gogen writes for fixtures.Guard with Options.Host "*Bot". Its tests
// run it against table.Agent.
package guardgen

// Bot is the guard's host in the tests: it hands every test to Ask and
// every entry action to Set, by the generated IDs.
type Bot struct {
	Ask func(t Test) bool
	Set func(p Property, v uint16)
}

// SeesPlayer answers the test "sees player".
func (b *Bot) SeesPlayer() bool { return b.Ask(TestSeesPlayer) }

// Health answers the tests "health=low" and "health=high".
func (b *Bot) Health(v Health) bool {
	switch v {
	case HealthLow:
		return b.Ask(TestHealthLow)
	case HealthHigh:
		return b.Ask(TestHealthHigh)
	}
	panic("guardgen: Health(" + v.String() + ")")
}

// Distance answers the test "distance=near".
func (b *Bot) Distance(v string) bool {
	if v != "near" {
		panic("guardgen: Distance(" + v + ")")
	}
	return b.Ask(TestDistanceNear)
}

// Speed performs an entry action.
func (b *Bot) Speed(v Speed) { b.Set(PropertySpeed, uint16(v)) }

// Weapon performs an entry action.
func (b *Bot) Weapon(v Weapon) { b.Set(PropertyWeapon, uint16(v)) }

// AlertLevel performs an entry action.
func (b *Bot) AlertLevel(v AlertLevel) { b.Set(PropertyAlertLevel, uint16(v)) }
