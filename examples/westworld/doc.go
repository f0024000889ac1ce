// Package westworld is Buckland's West World (Programming Game AI by Example,
// chapter 2) on fsmforge: Miner Bob digs for gold, banks it, drinks at the
// saloon and sleeps it off; his wife Elsa keeps house, visits the outhouse
// now and then and cooks him stew when he comes home.
//
// Each character is driven by an [fsm.BehaviorMachine] whose states are
// stateless package-level values, and the two talk through a
// [message.Dispatcher]: Bob tells Elsa he is home (HiHoneyImHome, at once),
// Elsa reminds herself the stew is done (StewReady, 1.5 s later) and tells
// Bob. The behaviour, the numbers and the order of events are Buckland's
// (WestWorld1 for Bob alone, WestWorldWithMessaging with Elsa); the lines
// they say are our own.
//
// The world runs on game time, 0.8 s per update, and Elsa's dice come from a
// seeded source, so a seed always prints the same story. Run it with
//
//	go run ./cmd/fsmforge demo westworld          # Bob and Elsa, 30 updates
//	go run ./cmd/fsmforge demo westworld -solo    # Bob alone, 20 updates
//	go run ./cmd/fsmforge demo westworld -trace   # one tab-separated line per entity per update
package westworld
