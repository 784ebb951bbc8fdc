// Package apigen draws random multi-version APIs, from a seed, over the
// shapes the markers and Go allow, and random objects of each version, so
// that tests hold crdforge to its promise on APIs nobody chose: generate
// succeeds or refuses with a positioned error, the output builds and vets,
// the generated tests pass, and the webhook's answers (generated codec and
// reflection codec) agree with encoding/json of the Go conversion and give
// every object back on the way home.
//
// It is a test tool: nothing crdforge ships imports it. A seed draws the
// same API and objects every time (math/rand/v2's PCG), so a failing seed
// is a reproducible case; a case worth keeping is shrunk by hand into a
// golden case under testdata/.
package apigen
