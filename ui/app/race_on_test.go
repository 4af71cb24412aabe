//go:build race

package app

// raceDetector: the race detector slows every goroutine several times, so
// wall-clock bounds meant for real builds are not asserted under -race.
const raceDetector = true
