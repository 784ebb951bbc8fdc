package convert_test

import (
	"errors"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/crdforge/crdforge/webhook/internal/convert"
	"github.com/crdforge/crdforge/webhook/internal/jsonscan"
	"github.com/crdforge/crdforge/webhook/internal/testkit"
)

func box() convert.Kind {
	return convert.Kind{Group: testkit.BoxGroup, Kind: testkit.BoxKind, Hub: testkit.BoxHub, Versions: testkit.BoxVersions()}
}

func TestNewTableRejectsABrokenTableNamingEveryProblem(t *testing.T) {
	noHub := box()
	noHub.Kind, noHub.Hub = "NoHub", "v9"
	wrongHub := box()
	wrongHub.Kind, wrongHub.Hub = "WrongHub", "v1" // v1 is no conversion.Hub, v2 no Convertible
	_, err := convert.NewTable(box(), box(), noHub, wrongHub)
	if err == nil {
		t.Fatal("NewTable accepted a broken table")
	}
	for _, want := range []string{
		"Box.test.io registered twice",
		`NoHub.test.io: hub version "v9" is not among its versions`,
		"WrongHub.test.io: the v1 object does not implement conversion.Hub",
		"WrongHub.test.io: the v2 object does not implement conversion.Convertible",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error lacks %q:\n%v", want, err)
		}
	}
}

func TestTableKindsListsVersionsAndHubSorted(t *testing.T) {
	other := convert.Kind{Group: "a.io", Kind: "Zed", Hub: "v1", Versions: map[string]func() runtime.Object{
		"v1": func() runtime.Object { return new(testkit.BoxV2) },
	}}
	table, err := convert.NewTable(box(), other)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(table.Kinds(), "; ")
	if want := "Box.test.io (v1, v2, v3; hub v2); Zed.a.io (v1; hub v1)"; got != want {
		t.Errorf("Kinds() = %s, want %s", got, want)
	}
}

func TestTableConvertsThroughTheHubAndKeepsTheObjectAsIs(t *testing.T) {
	table, err := convert.NewTable(box())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ in, to, want string }{
		{testkit.BoxJSON("v1", "a", `"hostPort":"h:1"`), "test.io/v3",
			`{"kind":"Box","apiVersion":"test.io/v3","metadata":{"name":"a","namespace":"ns","uid":"u-a"},"host":"h","number":"1"}`},
		{testkit.BoxJSON("v3", "b", `"host":"h","number":"2"`), "test.io/v3",
			`{"kind":"Box","apiVersion":"test.io/v3","metadata":{"name":"b","namespace":"ns","uid":"u-b"},"host":"h","number":"2"}`},
	} {
		got, err := table.Convert(object(t, tc.in), tc.to)
		if err != nil || string(got) != tc.want {
			t.Errorf("Convert(%s, %s) = %s, %v\nwant %s", tc.in, tc.to, got, err, tc.want)
		}
	}
	var unknown *convert.UnknownError
	if _, err := table.Convert(object(t, testkit.BoxJSON("v7", "c", `"host":"h"`)), "test.io/v2"); err == nil || !errors.As(err, &unknown) {
		t.Errorf("an unknown version: %v, want an UnknownError", err)
	}
}

func object(t *testing.T, raw string) *jsonscan.Object {
	t.Helper()
	o, err := jsonscan.ParseObject([]byte(raw))
	if err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	return &o
}

// The metadata of a converted object goes out byte for byte as it came in,
// managedFields, member order and number formats included, whatever the
// typed decode and encode would make of it.
func TestTableCarriesMetadataThroughAsItCameIn(t *testing.T) {
	table, err := convert.NewTable(box())
	if err != nil {
		t.Fatal(err)
	}
	meta := `{"uid":"u-a", "name":"a","namespace":"ns","generation": 1 ,"creationTimestamp":"2024-01-02T03:04:05Z",` +
		`"managedFields":[{"manager":"kubectl","operation":"Update","fieldsType":"FieldsV1","fieldsV1":{"f:host":{}}}],"labels":{"b":"2","a":"1"}}`
	in := `{"apiVersion":"test.io/v1","kind":"Box","metadata":` + meta + `,"hostPort":"h:1"}`
	got, err := table.Convert(object(t, in), "test.io/v3")
	if err != nil {
		t.Fatal(err)
	}
	want := `{"kind":"Box","apiVersion":"test.io/v3","metadata":` + meta + `,"host":"h","number":"1"}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// An object with no apiVersion or no kind is named as such.
func TestTableNamesAMissingAPIVersionOrKind(t *testing.T) {
	table, err := convert.NewTable(box())
	if err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string]string{
		`{"kind":"Box","metadata":{"name":"a"}}`:              "the object has no apiVersion",
		`{"apiVersion":"test.io/v1","metadata":{"name":"a"}}`: "the object has no kind",
		`{"apiVersion":null,"kind":"Box"}`:                    "the object has no apiVersion",
	} {
		_, err := table.Convert(object(t, in), "test.io/v2")
		var unknown *convert.UnknownError
		if !errors.As(err, &unknown) || err.Error() != want {
			t.Errorf("%s: %v, want %q", in, err, want)
		}
	}
}
