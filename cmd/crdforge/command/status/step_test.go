package status

import (
	"strings"
	"testing"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crdforge/crdforge/webhook/storagemigrate"
)

// ver is a spec.versions entry: flags s(erved), S(torage), d(eprecated).
func ver(name, flags string) apiextv1.CustomResourceDefinitionVersion {
	return apiextv1.CustomResourceDefinitionVersion{Name: name,
		Served: strings.Contains(flags, "s"), Storage: strings.Contains(flags, "S"), Deprecated: strings.Contains(flags, "d")}
}

func crdOf(stored []string, versions ...apiextv1.CustomResourceDefinitionVersion) *apiextv1.CustomResourceDefinition {
	return &apiextv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "crontabs.example.com"},
		Spec: apiextv1.CustomResourceDefinitionSpec{Group: "example.com", Versions: versions,
			Names: apiextv1.CustomResourceDefinitionNames{Plural: "crontabs", Kind: "CronTab"}},
		Status: apiextv1.CustomResourceDefinitionStatus{StoredVersions: stored},
	}
}

func TestStepFollowsTheLifeOfAVersion(t *testing.T) {
	for _, tc := range []struct {
		name     string
		crd      *apiextv1.CustomResourceDefinition
		webhook  *WebhookCheck
		want     string
		wantNext string
	}{
		{"one version", crdOf([]string{"v1"}, ver("v1", "sS")), nil, StepSettled, "crdforge new-version"},
		{"new version served, not storage", crdOf([]string{"v1"}, ver("v1", "sS"), ver("v2", "s")), nil, StepMakeStorage, "make v2 the storage version"},
		{"an alpha beside GA storage is not newer", crdOf([]string{"v1"}, ver("v1", "sS"), ver("v2alpha1", "s")), nil, StepStopServing, "deprecate v2alpha1"},
		{"storage moved, old still stored", crdOf([]string{"v1", "v2"}, ver("v1", "s"), ver("v2", "sS")), nil, StepMigrate, "crdforge migrate crontabs.example.com"},
		{"migrated, old served", crdOf([]string{"v2"}, ver("v1", "s"), ver("v2", "sS")), nil, StepStopServing, "deprecate v1"},
		{"migrated, old deprecated", crdOf([]string{"v2"}, ver("v1", "sd"), ver("v2", "sS")), nil, StepStopServing, "stop serving v1"},
		{"old unserved", crdOf([]string{"v2"}, ver("v1", "d"), ver("v2", "sS")), nil, StepRemove, "delete v1's package"},
		{"webhook down comes first", crdOf([]string{"v1", "v2"}, ver("v1", "s"), ver("v2", "sS")), &WebhookCheck{Detail: "connection refused"}, StepWebhookDown, "start the conversion webhook"},
		{"webhook up", crdOf([]string{"v1", "v2"}, ver("v1", "s"), ver("v2", "sS")), &WebhookCheck{Answers: true}, StepMigrate, "crdforge migrate"},
		{"no storage version", crdOf(nil, ver("v1", "s")), nil, "invalid", "storageversion"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := FromCRD(tc.crd)
			r.Webhook = tc.webhook
			got := stepOf(r)
			if got.Name != tc.want || !strings.Contains(got.Next, tc.wantNext) {
				t.Errorf("step = %+v, want %s with next containing %q", got, tc.want, tc.wantNext)
			}
		})
	}
}

func TestDefaultWarningNamesTheNewestServedVersion(t *testing.T) {
	crd := crdOf([]string{"v1"}, ver("v1beta1", "sd"), ver("v1", "sS"), ver("v2alpha1", "s"))
	r := FromCRD(crd)
	if got, want := r.Versions[0].DeprecationWarning, "example.com/v1beta1 CronTab is deprecated; use example.com/v1 CronTab"; got != want {
		t.Errorf("warning = %q, want %q", got, want)
	}
	text := "v1beta1 goes away in 2027"
	crd.Spec.Versions[0].DeprecationWarning = &text
	if got := FromCRD(crd).Versions[0].DeprecationWarning; got != text {
		t.Errorf("warning = %q, want the CRD's own %q", got, text)
	}
}

// The report carries, and prints, what the webhook's --migrate-storage
// recorded on the CRD.
func TestReportReadsTheWebhooksMigration(t *testing.T) {
	crd := &apiextv1.CustomResourceDefinition{}
	crd.Name = "crontabs.example.com"
	crd.Annotations = map[string]string{storagemigrate.StatusAnnotation: `{"phase":"Failed","storage":"v2","rewritten":3,"failed":1,"message":"a conversion failed","time":"2026-01-01T00:00:00Z"}`}
	r := FromCRD(crd)
	if r.Migration == nil || r.Migration.Phase != storagemigrate.PhaseFailed || r.Migration.Failed != 1 {
		t.Fatalf("Migration = %+v, want the annotation's", r.Migration)
	}
	var b strings.Builder
	if err := WriteText(&b, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "webhook's storage migration: Failed to v2, 3 rewritten, 1 failed") || !strings.Contains(b.String(), "a conversion failed") {
		t.Errorf("the text lacks the migration:\n%s", b.String())
	}
}
