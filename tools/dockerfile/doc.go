// Package dockerfile lints the Dockerfiles crdforge generates for the
// conversion webhook with buildkit's own Dockerfile parser: no Docker
// engine runs where crdforge's tests run, so the image is not built, but
// every generated Dockerfile must parse as buildkit parses it and keep what
// makes the image small and safe: a build stage and a final stage, a static
// binary (CGO_ENABLED=0), a distroless base, a non-root user.
//
// It is a module of its own so that buildkit stays out of crdforge's
// go.mod; run it with `cd tools/dockerfile && go test ./...`.
package dockerfile
