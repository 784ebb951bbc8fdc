//go:build !race

package review

// raceDetector: see race_test.go.
const raceDetector = false
