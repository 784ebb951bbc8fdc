package v1

import (
	v2 "github.com/crdforge/crdforge/testdata/handnarrow/api/v2"
	"sigs.k8s.io/controller-runtime/pkg/conversion"
)

// ConvertTo converts this Balancer to the hub.
func (src *Balancer) ConvertTo(dstRaw conversion.Hub) error {
	return Convert_v1_Balancer_To_v2_Balancer(src, dstRaw.(*v2.Balancer), nil)
}

// ConvertFrom converts the hub to this Balancer.
func (dst *Balancer) ConvertFrom(srcRaw conversion.Hub) error {
	return Convert_v2_Balancer_To_v1_Balancer(srcRaw.(*v2.Balancer), dst, nil)
}
