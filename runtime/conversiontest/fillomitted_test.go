package conversiontest

import (
	"fmt"
	"testing"
	"time"

	"sigs.k8s.io/randfill"
)

// omittedPort is a list element with a field JSON omits beside ones it
// carries, as an in-memory cache in a CRD's Go type is.
type omittedPort struct {
	Name     string            `json:"name"`
	Resolved string            `json:"-"`
	Cache    map[string]string `json:"-"`
	Dash     string            `json:"-,"` //nolint:staticcheck // a member named "-": JSON carries it, which is the point
}

type omittedHolder struct {
	Ports  []omittedPort           `json:"ports,omitempty"`
	Port   *omittedPort            `json:"port,omitempty"`
	ByName map[string]*omittedPort `json:"byName,omitempty"`
	Notes  string                  `json:"-"`
}

// TestOmittedFieldsStayZero: a field tagged json:"-", which no object read
// from JSON holds, is never filled, wherever its struct is; the fields
// beside it are, and so is one JSON names "-".
func TestOmittedFieldsStayZero(t *testing.T) {
	f, err := newFiller(time.Now().UnixNano(), nil, &omittedHolder{})
	if err != nil {
		t.Fatal(err)
	}
	filled := map[string]bool{}
	check := func(where string, p omittedPort) {
		if p.Resolved != "" || p.Cache != nil {
			t.Fatalf("%s: json:\"-\" fields filled: Resolved %q, Cache %v", where, p.Resolved, p.Cache)
		}
		filled["name"] = filled["name"] || p.Name != ""
		filled["dash"] = filled["dash"] || p.Dash != ""
	}
	for i := 0; i < 500; i++ {
		var h omittedHolder
		f.Fill(&h)
		for j, p := range h.Ports {
			check(fmt.Sprintf("ports[%d]", j), p)
		}
		if h.Notes != "" {
			t.Fatalf("json:\"-\" Notes filled: %q", h.Notes)
		}
		if h.Port != nil {
			check("port", *h.Port)
		}
		filled["port nil"] = filled["port nil"] || h.Port == nil
		for k, p := range h.ByName {
			if p != nil {
				check("byName["+k+"]", *p)
			}
		}
	}
	for _, what := range []string{"name", "dash", "port nil"} {
		if !filled[what] {
			t.Errorf("%s: never filled", what)
		}
	}
}

// logger stands for what an in-memory field tagged json:"-" often holds: an
// interface, which randfill cannot fill.
type logger interface{ Info(string) }

type withLogger struct {
	Name string `json:"name"`
	Log  logger `json:"-"`
}

// TestOmittedFieldsNeedNoFillFunc: a json:"-" field of a type randfill
// cannot fill needs no fill function, since it is not filled at all.
func TestOmittedFieldsNeedNoFillFunc(t *testing.T) {
	f, err := newFiller(1, nil, &withLogger{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("filling a struct with a json:\"-\" interface field: %v", r)
		}
	}()
	for i := 0; i < 20; i++ {
		var w withLogger
		f.Fill(&w)
	}
}

// TestOmittedFieldsStayZeroUnderAFillFunction: a fill function of the
// struct, which replaces the one that leaves json:"-" fields zero, fills
// them with FillNoCustom, as crdforge's generated fill function of a
// narrowed field's struct does (apigen seed 57); they stay zero, and what
// the function sets beside them stays.
func TestOmittedFieldsStayZeroUnderAFillFunction(t *testing.T) {
	fn := func(h *omittedHolder, c randfill.Continue) {
		c.FillNoCustom(h)
		h.Notes = "always"
		h.Ports = []omittedPort{{Name: "p", Resolved: "set"}}
	}
	f, err := newFiller(time.Now().UnixNano(), []any{fn}, &omittedHolder{})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 100; i++ {
		var h omittedHolder
		f.Fill(&h)
		if h.Notes != "" {
			t.Fatalf("json:\"-\" Notes filled: %q", h.Notes)
		}
		if len(h.Ports) != 1 || h.Ports[0].Name != "p" {
			t.Fatalf("the fill function's ports are gone: %+v", h.Ports)
		}
	}
}
