//go:build !race

package app

// raceDetector: see race_on_test.go.
const raceDetector = false
