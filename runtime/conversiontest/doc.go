// Package conversiontest checks that hub-and-spoke conversions of CRD Go
// types are exact: converting an object to the other version and back must
// give back the object it started from.
//
// crdforge generates, next to every spoke version, a test that calls
// [RoundTrip] and a fuzz target that calls [FuzzRoundTrip] with a [Pair]
// naming the spoke type and its hub type. Both directions are checked:
//
//   - spoke-hub-spoke: a random spoke is converted with ConvertTo to a new
//     hub, and that hub with ConvertFrom to a new spoke;
//   - hub-spoke-hub: a random hub is converted with ConvertFrom to a new
//     spoke, and that spoke with ConvertTo to a new hub.
//
// Either version can hold data the other cannot; generated conversions keep
// it in annotations named conversion.crdforge.io/<version> and remove them on
// the way back, so the result must equal the original, annotations included.
//
// A conversion may share memory with its source, as conversion-gen's and
// crdforge's generated conversions do, but must not change it: each round
// trip fails when the first conversion changes the object it converts from,
// or when the way back changes the original object through memory the
// objects share.
//
// The random objects come from sigs.k8s.io/randfill. Since the stash
// annotations are JSON, every value must survive encoding/json; the package
// fills the Kubernetes types whose purely random contents would not (see
// [DefaultFillFuncs]), and authors add their own fill functions through
// [Pair.FillFuncs] when their conversions accept only some values. Nor does
// it fill what no object read from the API server holds: a nil element in a
// map or slice of pointers, a field tagged json:"-".
//
// Runs are reproducible: the seed is logged, and setting
// CRDFORGE_ROUNDTRIP_SEED replays the same objects. CRDFORGE_ROUNDTRIP_ITERATIONS
// changes how many objects each direction checks.
package conversiontest
