//go:build !race

package views

const promptTestsUnderRace = false
