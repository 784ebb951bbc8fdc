package conversiontest

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"strings"
	"time"

	"github.com/pmezard/go-difflib/difflib"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/conversion"
	"k8s.io/apimachinery/pkg/util/dump"
)

// semantic is equality.Semantic, which compares quantities by value, times
// by instant, and a nil slice or map as equal to an empty one: differences
// JSON, and so a stash annotation, does not preserve, and that no client
// can observe.
//
// It adds time.Time, by instant like metav1.Time: equality.Semantic panics
// on its unexported fields whenever two differ in any way, which would turn
// a CRD with a plain time.Time field into a crash instead of a diff.
var semantic = func() conversion.Equalities {
	e := conversion.Equalities{Equalities: maps.Clone(equality.Semantic.Equalities)}
	if err := e.AddFunc(func(a, b time.Time) bool { return a.Equal(b) }); err != nil {
		panic(err)
	}
	return e
}()

// compare reports whether got equals want and, if not, a readable diff.
//
// reflect.DeepEqual goes first only because it is several times faster, and
// most objects are identical; when it says equal, so would semantic. Equal
// by semantic, the objects must also be nil in the same places where JSON
// shows it (nilsApart); an embedded pointer JSON cannot tell from nil is
// nil to semantic (withoutHiddenEmbeds).
func compare(want, got any) (diff string, equal bool) {
	if reflect.DeepEqual(want, got) {
		return "", true
	}
	eq, err := semanticEqual(want, got)
	if err == nil && !eq {
		// Apart, perhaps, only where JSON cannot tell (embeds.go).
		eq, err = semanticEqual(withoutHiddenEmbeds(want), withoutHiddenEmbeds(got))
	}
	if err != nil {
		return err.Error(), false
	} else if !eq {
		return describe(want, got), false
	}
	if path, apart := nilsApart(reflect.ValueOf(want), reflect.ValueOf(got), "", false); apart {
		return fmt.Sprintf("%s is empty on one side and null or absent on the other:\n%s", path, describe(want, got)), false
	}
	return "", true
}

// semanticEqual turns the panic semantic raises on a struct with unexported
// fields it has no function for into an error, so that the failure still
// shows the seed and the objects.
func semanticEqual(a, b any) (equal bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("cannot compare the objects: %v\n(a type with unexported fields needs the same value on both sides)\n%s",
				r, describe(a, b))
		}
	}()
	return semantic.DeepEqual(a, b), nil
}

// describe diffs the JSON forms, which is how users know their objects.
func describe(want, got any) string {
	d := unifiedDiff(want, got)
	if strings.TrimSpace(d) == "" {
		// The difference is in something JSON does not show, such as a
		// field tagged json:"-".
		d = fmt.Sprintf("(the JSON forms are equal; the objects differ in a field JSON omits)\n- %#v\n+ %#v", want, got)
	}
	return d
}

// toJSON shows obj in failure messages, as users know it. HTML escaping is
// off because failure messages are read, not embedded in web pages.
func toJSON(obj any) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(obj); err != nil {
		return fmt.Sprintf("%#v (not JSON: %v)", obj, err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// unifiedDiff is a unified diff of the indented JSON forms of a and b, or of
// their dumps when either has no JSON form. apimachinery's util/diff.Diff
// prints the same, but it appeared after v0.30, and this module works with
// the apimachinery of its users, from v0.30 on.
func unifiedDiff(a, b any) string {
	aText, aErr := json.MarshalIndent(a, "", " ")
	bText, bErr := json.MarshalIndent(b, "", " ")
	if aErr != nil || bErr != nil {
		aText, bText = []byte(dump.Pretty(a)), []byte(dump.Pretty(b))
	}
	d, err := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{
		A:       difflib.SplitLines(string(aText)),
		B:       difflib.SplitLines(string(bText)),
		Context: 3,
	})
	if err != nil {
		return fmt.Sprintf("error generating diff: %v", err)
	}
	return d
}
