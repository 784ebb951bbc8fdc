//go:build race

package review

// raceDetector is whether the tests run with the race detector, under
// which sync.Pool drops what is put into it at random: what a request
// allocates then varies from one run to the next.
const raceDetector = true
