// Package webhook is crdforge's conversion webhook, as a main uses it.
//
// A generated main (cmd/webhook/main.go, written by crdforge generate)
// lists the versions of every kind in a static table and hands it to Run,
// which serves ConversionReviews until SIGTERM:
//
//	func main() {
//		opts := webhook.BindFlags(flag.CommandLine)
//		flag.Parse()
//		os.Exit(webhook.Run(opts, kinds()...))
//	}
//
// A main that has an HTTPS server already, such as a controller-runtime
// manager's, serves the handler itself instead:
//
//	h, err := webhook.NewHandler(webhook.HandlerOptions{Registerer: metrics.Registry}, kinds()...)
//	...
//	mgr.GetWebhookServer().Register("/convert", h)
//
// The package imports none of crdforge's generator dependencies
// (golang.org/x/tools, github.com/dave/jennifer, sigs.k8s.io/controller-tools,
// k8s.io/gengo); imports_test.go enforces it. It is a Go module of its own
// (webhook/go.mod), on the oldest Go, Kubernetes and controller-runtime it
// works with, so that a generated main adds none of the generator's
// requirements to a user's project; adoption_test.go enforces that.
//
// The module is licensed under the Apache License 2.0 (LICENSE).
package webhook
