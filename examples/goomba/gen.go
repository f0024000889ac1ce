package goomba

//go:generate go run ../../cmd/fsmforge gen goomba.vdx -stencil goomba.stencil.json -pkg goomba -host *Goomba -o goomba_fsm.go

// The Host methods of the generated code (goomba_fsm.go): the drawing's
// tests and entry actions, as the game implements them. Leave one out and
// the package does not compile.

func (g *Goomba) HitTriggerLeft() bool  { return g.hitTriggerLeft() }
func (g *Goomba) HitTriggerRight() bool { return g.hitTriggerRight() }
func (g *Goomba) AnimationDone() bool   { return g.animationDone() }
func (g *Goomba) XMovement(v XMovement) { g.setMovement(v.String()) }
func (g *Goomba) Animation(v Animation) { g.setAnimation(v.String()) }

// GenBrains returns the brains that run the Go code fsmforge gen made from
// the drawing, for [NewLevel] and [LoadLevel].
func GenBrains() Brains {
	return Brains{
		New: func(g *Goomba) (Brain, error) { return &genBrain{m: NewMachine(g)}, nil },
		Restore: func(g *Goomba, saved []byte) (Brain, error) {
			var s Snapshot
			if err := s.UnmarshalBinary(saved); err != nil {
				return nil, err
			}
			m, err := RestoreMachine(&s)
			return &genBrain{m: m}, err
		},
	}
}

type genBrain struct{ m Machine }

func (b *genBrain) Update(g *Goomba) (Step, error) { return step(b.m.Update(g)) }
func (b *genBrain) Hit(g *Goomba) (Step, error)    { return step(b.m.Receive(g, MessageHitByPlayer)) }
func (b *genBrain) State() string                  { return b.m.State().String() }
func (b *genBrain) Done() bool                     { return b.m.Done() }

func (b *genBrain) AppendSave(p []byte) ([]byte, error) {
	var s Snapshot
	b.m.Snapshot(&s)
	return s.AppendBinary(p)
}

func step(r Result, err error) (Step, error) {
	st := Step{Moved: r.Moved(), From: r.From.String(), To: "(final)"}
	if !r.Final() {
		st.To = r.To.String()
	}
	if r.Moved() {
		st.Test = r.Test.String()
	}
	return st, err
}
