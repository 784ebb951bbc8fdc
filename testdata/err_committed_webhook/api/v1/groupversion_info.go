// Package v1 is version v1 of example.com. Widget converted through the
// webhook (config/crd/bases/example.com_widgets.yaml, committed, has
// strategy Webhook), and the two Convert_ functions of WidgetSpec, whose
// Size changed type, have been deleted from v1beta1: generate must fail and
// write nothing, rather than fall back to strategy None and remove the
// webhook. Color, which v1beta1 lacks, is warned about in the same run, as
// it is for any kind that converts through the webhook.
// +kubebuilder:object:generate=true
// +groupName=example.com
package v1
