package v1alpha1

import (
	"strings"
	"testing"

	v1 "github.com/crdforge/crdforge/testdata/database/api/v1"
	"sigs.k8s.io/randfill"
)

// conversionFillFuncs makes the generated round-trip tests use values that
// both versions accept: v1 allows only two engines and sizes from 1 GB.
func conversionFillFuncs() []any {
	engines := []string{"Postgres", "MySQL"}
	return []any{
		func(s *DatabaseSpec, c randfill.Continue) {
			c.FillNoCustom(s)
			s.SizeGB = 1 + int64(c.Int31n(1<<30))
			s.Engine = engines[c.Intn(2)]
		},
		func(s *v1.DatabaseSpec, c randfill.Continue) {
			c.FillNoCustom(s)
			s.Storage.Size = 1 + c.Int31n(1<<30)
			s.Engine = v1.Engine(engines[c.Intn(2)])
		},
	}
}

// TestNarrowingFails checks that a value v1 does not allow fails the
// conversion with an error naming the field, instead of being written.
func TestNarrowingFails(t *testing.T) {
	for _, tt := range []struct {
		spec DatabaseSpec
		want string
	}{
		{DatabaseSpec{SizeGB: 10, Engine: "mongodb"}, `field engine (v1alpha1 DatabaseSpec.Engine): v1 allows only one of Postgres, MySQL, not "mongodb"`},
		{DatabaseSpec{SizeGB: 1 << 40, Engine: "MySQL"}, `field storage.size (v1alpha1 DatabaseSpec.SizeGB): v1 allows only 1 to 2147483647, not 1099511627776`},
		{DatabaseSpec{SizeGB: 0, Engine: "MySQL"}, `field storage.size (v1alpha1 DatabaseSpec.SizeGB): v1 allows only 1 to 2147483647, not 0`},
	} {
		in := &Database{Spec: tt.spec}
		var out v1.Database
		err := in.ConvertTo(&out)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: err = %v, want it to contain %q", tt.spec, err, tt.want)
		}
	}
	in := &Database{Spec: DatabaseSpec{SizeGB: 10, Engine: "Postgres"}}
	var out v1.Database
	if err := in.ConvertTo(&out); err != nil || out.Spec.Engine != "Postgres" || out.Spec.Storage.Size != 10 {
		t.Errorf("valid spec: err = %v, out = %+v", err, out.Spec)
	}
}
