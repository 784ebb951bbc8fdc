package pipeline

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/markers"
)

func generate(t *testing.T, testCase string) *Result {
	t.Helper()
	res, err := Generate(Config{Dir: filepath.Join("..", "..", "testdata", testCase)})
	if err != nil {
		t.Fatal(err)
	}
	if res.Diags.HasErrors() {
		for _, d := range res.Diags.Items() {
			t.Error(d.Format(""))
		}
		t.FailNow()
	}
	return res
}

func onlyKind(t *testing.T, m *model.Model) *model.Kind {
	t.Helper()
	if len(m.Groups) != 1 || len(m.Groups[0].Kinds) != 1 {
		t.Fatalf("want exactly one kind, got %d groups", len(m.Groups))
	}
	return m.Groups[0].Kinds[0]
}

func TestHubIsTheStorageVersionByDefault(t *testing.T) {
	k := onlyKind(t, generate(t, "webhook").Model)
	if k.Storage == nil || k.Storage.Name != "v1" || k.Hub != k.Storage {
		t.Errorf("storage = %v, hub = %v; want both v1", k.Storage, k.Hub)
	}
	if k.Conversion.Strategy != markers.StrategyWebhook || k.Conversion.Explicit {
		t.Errorf("conversion = %+v, want an inferred Webhook", k.Conversion)
	}
	want := model.Service{Name: "widget-conversion", Namespace: "widgets", Path: "/convert-widgets", Port: 8443}
	if k.Conversion.Service != want {
		t.Errorf("service = %+v, want %+v (from the package marker)", k.Conversion.Service, want)
	}
}

func TestHubMarkerChoosesTheHub(t *testing.T) {
	k := onlyKind(t, generate(t, "hubmarker").Model)
	if k.Hub == nil || k.Hub.Name != "v1beta1" || k.Storage.Name != "v1" {
		t.Errorf("hub = %v, storage = %v; want hub v1beta1, storage v1", k.Hub, k.Storage)
	}
	if k.Conversion.Strategy != markers.StrategyWebhook || !k.Conversion.Explicit {
		t.Errorf("identical schemas with an explicit Webhook marker: conversion = %+v", k.Conversion)
	}
}

func TestDefaultsDeriveFromTheDirectory(t *testing.T) {
	m := generate(t, "noinject").Model
	if m.Project != "noinject" {
		t.Errorf("project = %q", m.Project)
	}
	k := onlyKind(t, m)
	want := model.Service{Name: "noinject-webhook-service", Namespace: "noinject-system", Path: "/convert", Port: 443}
	if k.Conversion.Service != want || k.Conversion.InjectCA {
		t.Errorf("conversion = %+v, want service %+v and no CA injection", k.Conversion, want)
	}
}

func TestVersionsAreInKubernetesPriorityOrder(t *testing.T) {
	k := onlyKind(t, generate(t, "priority").Model)
	want := []string{"v10", "v2", "v1", "v11beta2", "v10beta3", "v3beta1", "v12alpha1", "v11alpha2", "foo1", "foo10"}
	if len(k.Versions) != len(want) {
		t.Fatalf("%d versions, want %d", len(k.Versions), len(want))
	}
	for i, v := range k.Versions {
		if v.Name != want[i] {
			t.Errorf("versions[%d] = %s, want %s", i, v.Name, want[i])
		}
	}
	byName := map[string]*model.Version{}
	for _, v := range k.Versions {
		byName[v.Name] = v
	}
	if !byName["v3beta1"].Deprecated || byName["v3beta1"].DeprecationWarning == nil ||
		!byName["v12alpha1"].Deprecated || byName["v12alpha1"].DeprecationWarning != nil ||
		byName["foo10"].Served || !byName["v1"].Storage {
		t.Errorf("version flags not taken from the markers")
	}
}

func TestOutputIsDeterministic(t *testing.T) {
	for _, c := range []string{"priority", "features"} {
		a, b := generate(t, c), generate(t, c)
		if len(a.Files) != len(b.Files) {
			t.Fatalf("%s: %d files, then %d", c, len(a.Files), len(b.Files))
		}
		for i := range a.Files {
			if a.Files[i].Path != b.Files[i].Path || !bytes.Equal(a.Files[i].Content, b.Files[i].Content) {
				t.Errorf("%s: %s differs between two runs", c, a.Files[i].Path)
			}
		}
	}
}
