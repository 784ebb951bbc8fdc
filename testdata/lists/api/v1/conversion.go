package v1

import (
	v2 "github.com/crdforge/crdforge/testdata/lists/api/v2"
	"sigs.k8s.io/controller-runtime/pkg/conversion"
)

// ConvertTo converts this WidgetList to the hub.
func (src *WidgetList) ConvertTo(dstRaw conversion.Hub) error {
	return Convert_v1_WidgetList_To_v2_WidgetList(src, dstRaw.(*v2.WidgetList), nil)
}

// ConvertFrom converts the hub to this WidgetList.
func (dst *WidgetList) ConvertFrom(srcRaw conversion.Hub) error {
	return Convert_v2_WidgetList_To_v1_WidgetList(srcRaw.(*v2.WidgetList), dst, nil)
}
