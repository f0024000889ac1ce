package main

func Example() {
	main()
	// Output:
	// frame 0: patrol (walks the wall)
	// Halt!
	// frame 1: chase (runs)
	// frame 2: rest (sits down)
	// frame 3: patrol (walks the wall)
}
