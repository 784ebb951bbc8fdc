package model

import (
	"go/token"
	"go/types"
	"path/filepath"
	"strings"

	"k8s.io/gengo/v2/codetags"
	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/crdforge/crdforge/internal/diag"
	"github.com/crdforge/crdforge/markers"
)

// InternalHub is the unversioned package that conversion-gen converts every
// version of a kind through, as Kubernetes converts its built-in types:
// each version package names it in its doc.go with
// +k8s:conversion-gen=<import path>, and it declares the kind's types but
// serves no version of them (Gatekeeper's ConstraintTemplate converts
// through pkg/core/templates). The project's hand-written code calls
// conversion-gen's Convert_<version>_<Type>_To_<internal>_<Type> functions
// and its RegisterConversions, and converts between served versions
// through the internal types itself.
type InternalHub struct {
	Package *loader.Package
	// Pos is the +k8s:conversion-gen tag that names it.
	Pos token.Pos
	// Undeclared says the internal package declares no type of the kind's
	// name: conversion-gen converts nothing of it. The kind is there because
	// its versions share packages with a kind that does convert through
	// the internal package, and those packages' conversions are
	// conversion-gen's (Model.LeftToConversionGen).
	Undeclared bool
}

// resolveInternalHub finds the internal package a multi-version kind
// converts through, if any. crdforge converts between served versions
// through a hub that is one of them; the conversions to an internal package
// are conversion-gen's, and so are the files that hold them: the kind's
// versions get no crdforge conversion (their zz_generated.conversion.go
// stay as conversion-gen wrote them) and, unless a marker says otherwise,
// its CRD keeps strategy None, as controller-gen's does.
func (b *Builder) resolveInternalHub(k *Kind, diags *diag.List) {
	if len(k.Versions) < 2 {
		return // one version converts to nothing: no file of crdforge's to leave
	}
	own := map[string]bool{}
	for _, v := range k.Versions {
		own[v.Package.PkgPath] = true
	}
	for _, v := range k.Versions {
		for _, tag := range conversionGenPeers(b.Fset, v.Package) {
			peer := b.loaded(v.Package, tag.path)
			if peer == nil || own[peer.PkgPath] || peer.Types == nil {
				continue
			}
			if _, ok := peer.Types.Scope().Lookup(v.Type.Obj().Name()).(*types.TypeName); !ok {
				continue // conversion-gen pairs nothing of this kind there
			}
			k.Internal = &InternalHub{Package: peer, Pos: tag.pos}
			b.reportInternalHub(k, tag.path, diags)
			return
		}
	}
}

// reportInternalHub settles the strategy of k, whose conversions are
// conversion-gen's through k.Internal: None, unless a marker chose it, and a
// warning at the tag that says why; an explicit Webhook is an error, as
// nothing crdforge writes would convert k.
func (b *Builder) reportInternalHub(k *Kind, path string, diags *diag.List) {
	name, internal := k.Name, k.Internal.Package.Name
	conv := &k.Conversion
	if conv.Explicit && conv.Strategy == markers.StrategyWebhook {
		d := diags.Errorf(conv.Pos, "%s cannot convert through a webhook: its conversions are conversion-gen's", name).
			Note("%s converts through package %s (+k8s:conversion-gen=%s at %s)", name, internal, path, b.where(k.Internal.Pos))
		if k.Internal.Undeclared {
			d.Note("%s declares no %s, so neither conversion-gen nor crdforge converts %s", internal, name, name).
				Help("declare %s in %s for conversion-gen to convert it, or remove +%s:strategy=Webhook", name, internal, markers.ConversionName)
		} else {
			d.Note("%s is an internal version no CRD serves", internal).
				Help("remove +%s:strategy=Webhook, or the tag to have crdforge convert %s through a served hub version", markers.ConversionName, name)
		}
		return
	}
	if !conv.Explicit {
		conv.Strategy = markers.StrategyNone
	}
	if k.Internal.Undeclared {
		diags.Warnf(k.Internal.Pos, "%s's versions do not convert: package %s declares no %s", name, internal, name).
			Note("the conversions of %s are conversion-gen's, through package %s, which converts nothing of %s", versionPackages(k), internal, name).
			Note("crdforge writes no conversion beside conversion-gen's, and the CRD keeps conversion strategy None").
			Help("declare %s in %s for conversion-gen to convert it", name, internal)
		return
	}
	diags.Warnf(k.Internal.Pos, "%s converts through package %s, an internal version no CRD serves", name, internal).
		Note("conversion-gen's functions to it and its RegisterConversions stay conversion-gen's: crdforge leaves the zz_generated.conversion.go of %s as they are", versionPackages(k)).
		Note("crdforge writes no ConvertTo or ConvertFrom for %s, and its CRD keeps conversion strategy None", name).
		Help("remove this tag to have crdforge convert %s through a served hub version", name)
}

// leaveUndeclaredToConversionGen settles the kinds that share version
// packages with a kind converting through an internal package, but that
// the internal package does not declare. Those packages' conversions are
// conversion-gen's, which pairs each type with the internal type of its
// name, and so converts nothing of such a kind; crdforge writes no
// conversion in those packages, where a ConvertTo or a Convert_ of its own
// would sit beside conversion-gen's. Nothing converts the kind's versions,
// then: its CRD keeps strategy None, and its author is told why, at the tag
// that names the internal package. It runs once every kind is built: which
// packages are conversion-gen's depends on the other kinds.
func (b *Builder) leaveUndeclaredToConversionGen(diags *diag.List) {
	hubs := map[*loader.Package]bool{}
	for _, g := range b.Groups {
		for _, k := range g.Kinds {
			if k.Internal != nil {
				hubs[k.Internal.Package] = true
			}
		}
	}
	if len(hubs) == 0 {
		return
	}
	for _, g := range b.Groups {
		for _, k := range g.Kinds {
			if k.Internal != nil || len(k.Versions) < 2 {
				continue
			}
			if hub, path, ok := b.sharedInternalHub(k, hubs); ok {
				k.Internal = hub
				b.reportInternalHub(k, path, diags)
			}
		}
	}
}

// sharedInternalHub finds, in the doc.go of one of k's version packages, a
// +k8s:conversion-gen tag that names one of hubs, and returns that
// internal hub (undeclared for k) and the tag's path.
func (b *Builder) sharedInternalHub(k *Kind, hubs map[*loader.Package]bool) (*InternalHub, string, bool) {
	for _, v := range k.Versions {
		for _, tag := range conversionGenPeers(b.Fset, v.Package) {
			if peer := b.loaded(v.Package, tag.path); peer != nil && hubs[peer] {
				return &InternalHub{Package: peer, Pos: tag.pos, Undeclared: true}, tag.path, true
			}
		}
	}
	return nil, "", false
}

// LeftToConversionGen reports whether pkg's conversions are conversion-gen's:
// it holds a version of a kind that converts through an internal package.
// Its zz_generated.conversion.go is conversion-gen's, and crdforge neither
// writes nor removes it.
func (m *Model) LeftToConversionGen(pkg *loader.Package) bool {
	for _, g := range m.Groups {
		for _, k := range g.Kinds {
			if k.Internal == nil {
				continue
			}
			for _, v := range k.Versions {
				if v.Package == pkg {
					return true
				}
			}
		}
	}
	return false
}

// versionPackages names the packages of a kind's versions: "v1, v1alpha1
// and v1beta1".
func versionPackages(k *Kind) string {
	var names []string
	seen := map[string]bool{}
	for _, v := range k.Versions {
		if !seen[v.Package.PkgPath] {
			seen[v.Package.PkgPath] = true
			names = append(names, v.Package.Name)
		}
	}
	return diag.AndList(names)
}

// loaded finds the package at path among the roots, or among what pkg
// imports, directly or not; nil when the load did not reach it.
func (b *Builder) loaded(pkg *loader.Package, path string) *loader.Package {
	for _, root := range b.Roots {
		if root.PkgPath == path {
			return root
		}
	}
	seen := map[string]bool{}
	var walk func(p *loader.Package) *loader.Package
	walk = func(p *loader.Package) *loader.Package {
		for _, imp := range p.Imports() {
			if imp.PkgPath == path {
				return imp
			}
			if !seen[imp.PkgPath] && strings.Contains(strings.SplitN(imp.PkgPath, "/", 2)[0], ".") {
				seen[imp.PkgPath] = true
				if found := walk(imp); found != nil {
					return found
				}
			}
		}
		return nil
	}
	return walk(pkg)
}

// ConversionGenTag is conversion-gen's tag: on a package, the internal
// package it converts through; on a type or field, an opt-out.
const ConversionGenTag = "k8s:conversion-gen"

// peerTag is one package named by a +k8s:conversion-gen tag, and where.
type peerTag struct {
	path string
	pos  token.Pos
}

// conversionGenPeers reads the packages a version package asks
// conversion-gen to convert it to, where conversion-gen reads them (gengo
// takes a package's tags from the comments of its doc.go only): every
// +k8s:conversion-gen=<import path> there, the opt-outs aside.
func conversionGenPeers(fset *token.FileSet, pkg *loader.Package) []peerTag {
	var out []peerTag
	for _, f := range pkg.Syntax {
		if filepath.Base(fset.Position(f.FileStart).Filename) != "doc.go" {
			continue
		}
		for _, g := range f.Comments {
			for _, c := range g.List {
				offset := 0
				for _, line := range strings.SplitAfter(c.Text, "\n") {
					text := strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(line, "//"), "/*"))
					for _, tag := range codetags.Extract("+", []string{text})[ConversionGenTag] {
						_, value, _ := strings.Cut(tag, "=")
						path, _, _ := strings.Cut(strings.TrimSpace(value), " ")
						if path != "false" && path != "true" && path != "" {
							at := c.Pos() + token.Pos(offset+strings.Index(line, "+"))
							out = append(out, peerTag{path: path, pos: at})
						}
					}
					offset += len(line)
				}
			}
		}
	}
	return out
}
