package game

// Player ids of the tests: the people at the table, and short ones for the
// seating tests.
const (
	alice PlayerID = iota + 1
	bob
	carol
	dave
)

const (
	pA PlayerID = iota + 11
	pB
	pC
	pD
	pE
	pZ
)
