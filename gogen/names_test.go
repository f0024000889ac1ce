package gogen

import "testing"

func TestCamel(t *testing.T) {
	for _, c := range []struct{ name, camel, exported string }{
		{"walkLeft", "WalkLeft", "WalkLeft"},
		{"walk left", "WalkLeft", "WalkLeft"},
		{"hit by player", "HitByPlayer", "HitByPlayer"},
		{"move_right", "MoveRight", "MoveRight"},
		{"go-to", "GoTo", "GoTo"},
		{"XMovement", "XMovement", "XMovement"},
		{"HP low", "HPLow", "HPLow"},
		{"2nd wind", "2ndWind", "X2ndWind"},
		{"2 fast", "2Fast", "X2Fast"},
		{"type", "Type", "Type"},
		{"func", "Func", "Func"},
		{"état", "État", "État"},
		{"État ☃", "État", "État"},
		{"ping!", "Ping", "Ping"},
		{"  spaced  out ", "SpacedOut", "SpacedOut"},
		{"走る", "走る", "X走る"},
		{"a.b/c", "ABC", "ABC"},
		{"x²", "X", "X"},
		{"→", "", ""},
		{"_", "", ""},
		{"", "", ""},
	} {
		if got := camel(c.name); got != c.camel {
			t.Errorf("camel(%q) = %q, want %q", c.name, got, c.camel)
		}
		if got := exported(camel(c.name)); got != c.exported {
			t.Errorf("exported(camel(%q)) = %q, want %q", c.name, got, c.exported)
		}
	}
}
