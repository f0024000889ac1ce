package formation

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strings"

	"github.com/fsmforge/fsmforge/fsm"
	"github.com/fsmforge/fsmforge/message"
)

// ShipID identifies a ship; 0 is no ship.
type ShipID int32

// String returns "ship" and the number.
func (id ShipID) String() string { return fmt.Sprintf("ship%d", int32(id)) }

// Kind is the type of a message between ships.
type Kind uint8

// The messages ships send through the board.
const (
	RallyCall   Kind = iota + 1 // a rallying leader, to all: Payload is its free places
	JoinRequest                 // a ship to a leader: I follow you (unless told Full)
	Full                        // a leader to a ship: no room, find another
	LeaderDown                  // a dying leader to its members: Payload is the successor's ShipID
)

var kindNames = [...]string{"?", "RallyCall", "JoinRequest", "Full", "LeaderDown"}

// String returns the message type's name.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Board is the squadron's message board.
type Board = message.Board[ShipID, Kind]

// Action is what a state does every frame, the article's state tag.
type Action func(s *Ship)

// The states' IDs in the graph [NewGraph] builds.
const (
	Idle fsm.StateID = iota
	Follow
	Lead
	Rally
	Patrol
	Attack
	NumStates // the number of states
)

// Ship is one formation flyer.
type Ship struct {
	ID      ShipID
	Leader  ShipID   // the leader followed; 0 for none
	Members []ShipID // a leader's followers
	Target  bool     // the enemy is in sight
	AI      fsm.GuardMachine[*Ship, Action]

	sq *Squadron
}

// Options configures a [Squadron]. The zero value is the default for each field.
type Options struct {
	Ships         int     // ships in the sortie; default 12
	FormationSize int     // followers a leader waits for before patrolling; default 3
	Seed          uint64  // seeds the enemy's appearances and the hits; default 0
	EnemyChance   float64 // chance per frame that the enemy shows up; default 0.15, negative for never
	EnemyFrames   int     // frames the enemy stays; default 4
	HitChance     float64 // chance per frame that an attacking leader is shot down; default 0.1, negative for never
	SpawnEvery    int     // frames between two ships arriving; default 2
}

func (o *Options) defaults() {
	if o.Ships <= 0 {
		o.Ships = 12
	}
	if o.FormationSize <= 0 {
		o.FormationSize = 3
	}
	if o.EnemyChance == 0 {
		o.EnemyChance = 0.15
	}
	if o.EnemyFrames <= 0 {
		o.EnemyFrames = 4
	}
	if o.HitChance == 0 {
		o.HitChance = 0.1
	}
	if o.SpawnEvery <= 0 {
		o.SpawnEvery = 2
	}
}

// Squadron is the sortie: the ships, the board, the enemy and the flow all
// ships share.
type Squadron struct {
	Ships []*Ship // alive, in ID order
	Board Board
	Flow  *fsm.Graph[*Ship, Action]

	opts      Options
	rng       *rand.Rand
	dice      *rand.PCG // rng's source, kept to save it
	frame     int
	nextID    ShipID
	toSpawn   int
	enemyLeft int
	down      []*Ship
	// Counts of the frame just run.
	moves [NumStates][NumStates]int
	lost  int
}

// NewGraph builds the article's flow: six states, seven transitions.
func NewGraph(formationSize int) *fsm.Graph[*Ship, Action] {
	g := &fsm.Graph[*Ship, Action]{}
	idle := g.AddState(fsm.State[*Ship, Action]{Name: "idle"})
	follow := g.AddState(fsm.State[*Ship, Action]{Name: "follow"})
	lead := g.AddState(fsm.State[*Ship, Action]{Name: "lead"})
	rally := g.AddState(fsm.State[*Ship, Action]{Name: "rally", Tag: rallying})
	patrol := g.AddState(fsm.State[*Ship, Action]{Name: "patrol"})
	attack := g.AddState(fsm.State[*Ship, Action]{Name: "attack", Tag: attacking})

	g.AddTransition(idle, lead, func(s *Ship) bool { return s.Leader == 0 })
	g.AddTransition(idle, follow, func(s *Ship) bool { return s.Leader != 0 })
	g.AddTransition(follow, lead, func(s *Ship) bool { return s.Leader == 0 })
	g.AddTransition(lead, rally, func(s *Ship) bool { return len(s.Members) < formationSize })
	g.AddTransition(rally, patrol, func(s *Ship) bool { return len(s.Members) == formationSize })
	g.AddTransition(patrol, attack, func(s *Ship) bool { return s.Target })
	g.AddTransition(attack, patrol, func(s *Ship) bool { return !s.Target })
	return g
}

// NewSquadron returns a squadron with no ship yet: they arrive one by one.
func NewSquadron(opts Options) *Squadron {
	opts.defaults()
	dice := rand.NewPCG(opts.Seed, 0xa57a11a)
	sq := &Squadron{
		opts:    opts,
		dice:    dice,
		rng:     rand.New(dice),
		Flow:    NewGraph(opts.FormationSize),
		toSpawn: opts.Ships,
	}
	sq.Flow.OnTransition = func(s *Ship, from, to fsm.StateID) { sq.moves[from][to]++ }
	return sq
}

// Frame returns the number of frames run.
func (sq *Squadron) Frame() int { return sq.frame }

// Step runs one frame: ships arrive, the enemy comes or goes, every ship
// reads last frame's messages, updates its machine and acts; shot-down
// leaders hand over; then the board swaps, so this frame's messages are
// read next frame. Step returns the first machine error (a guard cycle).
func (sq *Squadron) Step() error {
	sq.frame++
	sq.moves = [NumStates][NumStates]int{}
	sq.lost = 0
	if sq.toSpawn > 0 && (sq.frame-1)%sq.opts.SpawnEvery == 0 {
		sq.spawn()
	}
	switch {
	case sq.enemyLeft > 0:
		sq.enemyLeft--
	case sq.rng.Float64() < sq.opts.EnemyChance:
		sq.enemyLeft = sq.opts.EnemyFrames
	}
	var firstErr error
	for _, s := range sq.Ships {
		s.read()
		s.Target = sq.enemyLeft > 0 && s.Leader == 0
		if err := s.AI.Update(); err != nil && firstErr == nil {
			firstErr = fmt.Errorf("formation: frame %d, %s: %w", sq.frame, s.ID, err)
		}
		if act := s.AI.Tag(); act != nil {
			act(s)
		}
	}
	sq.bury()
	sq.Board.Swap()
	return firstErr
}

func (sq *Squadron) spawn() {
	sq.toSpawn--
	sq.nextID++
	s := &Ship{ID: sq.nextID, sq: sq}
	s.AI = sq.Flow.New(s, Idle)
	sq.Ships = append(sq.Ships, s)
}

// read handles the messages sent to the ship last frame.
func (s *Ship) read() {
	last := s.sq.Board.Last()
	for m := range last.To(s.ID) {
		switch m.Type {
		case JoinRequest:
			if len(s.Members) < s.sq.opts.FormationSize && s.Leader == 0 {
				s.Members = append(s.Members, m.From)
			} else {
				s.send(Full, m.From, nil)
			}
		case Full:
			if s.Leader == m.From {
				s.Leader = 0
			}
		case LeaderDown:
			if s.Leader != m.From {
				break
			}
			heir := m.Payload.(ShipID)
			if heir != s.ID {
				s.Leader = heir
				break
			}
			s.Leader = 0 // take over: the followers below are now ours
			for o := range last.OfTypeFrom(LeaderDown, m.From) {
				if o.To != s.ID {
					s.Members = append(s.Members, o.To)
				}
			}
		}
	}
	// An idle ship looks for a leader with room among last frame's rallies.
	if s.AI.In(Idle) && s.Leader == 0 {
		for m := range last.OfType(RallyCall) {
			if m.Payload.(int) > 0 {
				s.Leader = m.From
				s.send(JoinRequest, m.From, nil)
				break
			}
		}
	}
}

func (s *Ship) send(k Kind, to ShipID, payload any) {
	s.sq.Board.Send(message.Message[ShipID, Kind]{Type: k, From: s.ID, To: to, Payload: payload})
}

// rallying announces the leader and the places it has left.
func rallying(s *Ship) {
	s.sq.Board.Send(message.Message[ShipID, Kind]{Type: RallyCall, From: s.ID, Broadcast: true,
		Payload: s.sq.opts.FormationSize - len(s.Members)})
}

// attacking risks the leader's life.
func attacking(s *Ship) {
	if s.sq.rng.Float64() < s.sq.opts.HitChance {
		s.sq.down = append(s.sq.down, s)
	}
}

// bury removes the ships shot down this frame: each tells its members who
// leads them now, and a replacement is sent.
func (sq *Squadron) bury() {
	for _, s := range sq.down {
		if len(s.Members) > 0 {
			heir := s.Members[0]
			for _, m := range s.Members {
				s.send(LeaderDown, m, heir)
			}
		}
		for i, o := range sq.Ships {
			if o == s {
				sq.Ships = append(sq.Ships[:i], sq.Ships[i+1:]...)
				break
			}
		}
		sq.toSpawn++
		sq.lost++
	}
	sq.down = sq.down[:0]
}

// Counts returns how many ships are in each state, indexed by StateID.
func (sq *Squadron) Counts() [NumStates]int {
	var n [NumStates]int
	for _, s := range sq.Ships {
		n[s.AI.State()]++
	}
	return n
}

// Summary writes one line about the frame just run: the ships in each
// state, the transitions taken and the ships lost.
func (sq *Squadron) Summary(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "frame %3d |", sq.frame)
	for id, n := range sq.Counts() {
		fmt.Fprintf(&b, " %s %2d", sq.Flow.StateName(fsm.StateID(id)), n)
	}
	b.WriteString(" |")
	any := false
	for from := range sq.moves {
		for to, n := range sq.moves[from] {
			if n > 0 {
				fmt.Fprintf(&b, " %s→%s", sq.Flow.StateName(fsm.StateID(from)), sq.Flow.StateName(fsm.StateID(to)))
				if n > 1 {
					fmt.Fprintf(&b, "×%d", n)
				}
				any = true
			}
		}
	}
	if sq.lost > 0 {
		fmt.Fprintf(&b, " (%d shot down)", sq.lost)
		any = true
	}
	if !any {
		b.WriteString(" -")
	}
	b.WriteByte('\n')
	_, err := io.WriteString(w, b.String())
	return err
}
