//go:build !race

package main

const promptTestsUnderRace = false
