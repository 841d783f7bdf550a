//go:build race

package views

// promptTestsUnderRace: the Prompt tests of this package count tokens, and
// building the two BPE encoders costs ~2 s of CPU under the race detector;
// they run without -race (the engine's own tests cover its concurrency).
const promptTestsUnderRace = true
