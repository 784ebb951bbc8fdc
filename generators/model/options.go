package model

// Options says which optional parts of the model to resolve: those the
// selected generators read. A part left out reports no diagnostics either.
type Options struct {
	// Conversions resolves the type pairs of every spoke.
	Conversions bool
	// Strategies settles each kind's conversion strategy, which a kind
	// whose conversion needs functions nobody has written yet keeps at
	// None (plan.settleEntryPoints): the pairs, without the checks and losses
	// only generated conversions need. Conversions implies it.
	Strategies bool
	// Webhook resolves the module's conversion webhook, Model.Webhook.
	Webhook bool
	// DeepCopy resolves the types whose deepcopy methods crdforge writes
	// itself, Model.OwnCopies.
	DeepCopy bool
	// PackageMarkers keeps controller-tools' marker collector,
	// Model.Collector, for generators that read the markers of any root
	// (controller-gen's rbac and webhook generators), which a model for
	// CRDs alone drops.
	PackageMarkers bool
	// PartialTypes says the load checked only what schemas reach, as
	// controller-gen does for CRDs: a type outside the API packages may
	// hold a field of a type never checked. The pairing, which looks into
	// such types only now and then, asks for a complete load when it does
	// (plan.Conversions reports it).
	PartialTypes bool
	// Schema configures controller-tools' schema parser.
	Schema SchemaOptions
}

// SchemaOptions are controller-gen's crd generator options that shape
// schemas, with its meaning: crd.Generator.Generate hands the same values to
// the crd.Parser and to NeedCRDFor.
type SchemaOptions struct {
	// AllowDangerousTypes admits float32 and float64 fields.
	AllowDangerousTypes bool
	// IgnoreUnexportedFields leaves unexported fields out.
	IgnoreUnexportedFields bool
	// MaxDescLen, when set, truncates descriptions (crd.TruncateDescription):
	// 0 drops them, a negative value keeps them.
	MaxDescLen *int
	// GenerateEmbeddedObjectMeta gives embedded ObjectMetas their schema.
	GenerateEmbeddedObjectMeta bool
}

// With is o and p together: every part either asks for, and o's Schema.
func (o Options) With(p Options) Options {
	return Options{Conversions: o.Conversions || p.Conversions, Strategies: o.Strategies || p.Strategies, Webhook: o.Webhook || p.Webhook,
		DeepCopy: o.DeepCopy || p.DeepCopy, PackageMarkers: o.PackageMarkers || p.PackageMarkers, PartialTypes: o.PartialTypes || p.PartialTypes, Schema: o.Schema}
}
