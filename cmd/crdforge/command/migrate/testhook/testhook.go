// Package testhook lets tests reach into a migrate run without making the
// hook part of migrate.Options, the face the CLI and its users see.
//
// The hook travels in the run's context, as net/http/httptrace carries a
// ClientTrace: it belongs to one run, so parallel tests do not share it and
// no package-level variable holds it. It sits under internal/, so
// only crdforge's own packages can set it; the end-to-end suite reaches it
// through cli.RunMigrate.
package testhook

import "context"

type afterObjectKey struct{}

// WithAfterObject returns a copy of ctx whose migrate run calls f after each
// object is done (by any worker, one call at a time) with the number done so
// far. Tests interrupt a run at a known point by cancelling the context from
// f. A nil f returns ctx unchanged.
func WithAfterObject(ctx context.Context, f func(done int)) context.Context {
	if f == nil {
		return ctx
	}
	return context.WithValue(ctx, afterObjectKey{}, f)
}

// AfterObject returns the function WithAfterObject put in ctx, or nil.
func AfterObject(ctx context.Context) func(done int) {
	f, _ := ctx.Value(afterObjectKey{}).(func(done int))
	return f
}
