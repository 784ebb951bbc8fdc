module github.com/crdforge/crdforge/tools/dockerfile

go 1.26

require (
	github.com/moby/buildkit v0.17.3
	github.com/moby/patternmatcher v0.6.0
)

require (
	github.com/containerd/typeurl/v2 v2.2.0 // indirect
	github.com/gogo/protobuf v1.3.2 // indirect
	github.com/pkg/errors v0.9.1 // indirect
	github.com/planetscale/vtprotobuf v0.6.1-0.20240319094008-0393e58bdf10 // indirect
	google.golang.org/protobuf v1.35.1 // indirect
)
