//go:build race

package compile

// raceEnabled: the tests run under the race detector (slower: the long
// tables run a sample).
const raceEnabled = true
