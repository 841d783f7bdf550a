//go:build race

package prompts

const raceEnabled = true
