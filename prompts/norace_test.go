//go:build !race

package prompts

const raceEnabled = false
