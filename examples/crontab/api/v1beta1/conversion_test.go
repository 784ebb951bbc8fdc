package v1beta1

import (
	"reflect"
	"strconv"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/randfill"

	v1 "github.com/crdforge/crdforge/examples/crontab/api/v1"
)

// conversionFillFuncs makes the generated round-trip tests use addresses the
// hand-written conversion accepts: hostPort empty or host:port, and hosts and
// ports without a colon.
func conversionFillFuncs() []any {
	return []any{
		func(ct *CronTab, c randfill.Continue) {
			c.FillNoCustom(ct)
			ct.HostPort = ""
			if c.Bool() {
				ct.HostPort = token(c) + ":" + strconv.Itoa(c.Intn(65536))
			}
		},
		func(ct *v1.CronTab, c randfill.Continue) {
			c.FillNoCustom(ct)
			ct.Host, ct.Port = "", ""
			if c.Bool() {
				ct.Host = token(c)
			}
			if c.Bool() {
				ct.Port = strconv.Itoa(c.Intn(65536))
			}
		},
	}
}

// token is a random host name.
func token(c randfill.Continue) string {
	const letters = "abcdefghijklmnopqrstuvwxyz0123456789-."
	b := make([]byte, 1+c.Intn(20))
	for i := range b {
		b[i] = letters[c.Intn(len(letters))]
	}
	return string(b)
}

// TestSeedConversion converts the seed documents' CronTab as the API server
// would ask the webhook to: hostPort localhost:1234 becomes host localhost and
// port "1234", with metadata untouched and nothing stashed; and an
// unparseable hostPort fails with the documents' message.
func TestSeedConversion(t *testing.T) {
	in := &CronTab{
		TypeMeta:   metav1.TypeMeta{APIVersion: "example.com/v1beta1", Kind: "CronTab"},
		ObjectMeta: metav1.ObjectMeta{Name: "local-crontab", Namespace: "default", ResourceVersion: "143", UID: "3415a7fc-162b-4300-b5da-fd6083580d66"},
		HostPort:   "localhost:1234",
	}
	var out v1.CronTab
	if err := in.ConvertTo(&out); err != nil {
		t.Fatal(err)
	}
	want := v1.CronTab{
		TypeMeta:   metav1.TypeMeta{APIVersion: "example.com/v1", Kind: "CronTab"},
		ObjectMeta: in.ObjectMeta,
		Host:       "localhost",
		Port:       "1234",
	}
	if !reflect.DeepEqual(out, want) {
		t.Errorf("converted to\n%+v\nwant\n%+v", out, want)
	}

	var back CronTab
	if err := back.ConvertFrom(&out); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(&back, in) {
		t.Errorf("converted back to\n%+v\nwant\n%+v", back, *in)
	}

	bad := &CronTab{HostPort: "localhost"}
	err := bad.ConvertTo(&v1.CronTab{})
	if err == nil || err.Error() != "hostPort could not be parsed into a separate host and port" {
		t.Errorf("unparseable hostPort: err = %v", err)
	}
}
