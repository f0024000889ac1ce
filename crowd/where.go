package crowd

import "slices"

// whereIndex holds each entity's state by ID, or the markers absent and
// dead. A step writes it once per mover, at random: one byte per ID when
// the machine has at most [smallStates] states keeps those writes in
// cache far more often than four would.
type whereIndex struct {
	bytes bool    // small, not big, is in use
	small []uint8 // states, with 0xFF for absent and 0xFE for dead
	big   []StateID
}

// smallStates is the most states whose index takes a byte per ID: the two
// highest byte values are the markers.
const smallStates = 254

func newWhereIndex(states int) whereIndex { return whereIndex{bytes: states <= smallStates} }

func (x *whereIndex) len() int {
	if x.bytes {
		return len(x.small)
	}
	return len(x.big)
}

// get returns id's entry; id must be below len.
func (x *whereIndex) get(id ID) StateID {
	if x.bytes {
		s := StateID(x.small[id])
		if s >= smallStates { // a marker: absent and dead end in 0xFF and 0xFE
			s |= 0xFFFFFF00
		}
		return s
	}
	return x.big[id]
}

// set sets id's entry; id must be below len.
func (x *whereIndex) set(id ID, s StateID) {
	if x.bytes {
		x.small[id] = uint8(s)
		return
	}
	x.big[id] = s
}

// grow makes room for id, with the new entries absent.
func (x *whereIndex) grow(id ID) {
	if x.bytes {
		x.small = growAbsent(x.small, id, 0xFF)
		return
	}
	x.big = growAbsent(x.big, id, absent)
}

func growAbsent[T uint8 | StateID](s []T, id ID, absent T) []T {
	n := len(s)
	s = slices.Grow(s, int(id)+1-n)[:id+1]
	fill(s[n:], absent)
	return s
}
