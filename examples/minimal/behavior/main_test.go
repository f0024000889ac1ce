package main

func Example() {
	main()
	// Output:
	// to the bank with 3 nuggets
	// to the bank with 3 nuggets
	// now: dig - before: bank
}
