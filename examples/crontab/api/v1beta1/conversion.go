package v1beta1

import (
	"errors"
	"strings"

	"k8s.io/apimachinery/pkg/conversion"

	v1 "github.com/crdforge/crdforge/examples/crontab/api/v1"
)

// errHostPort is the seed documents' message for a hostPort without exactly
// one colon.
var errHostPort = errors.New("hostPort could not be parsed into a separate host and port")

// Convert_v1beta1_CronTab_To_v1_CronTab splits hostPort into host and port;
// crdforge generates the rest of the conversion.
//
//nolint:revive // var-naming: the name is conversion-gen's convention, by which crdforge finds this hand-written conversion and its generated code calls it.
func Convert_v1beta1_CronTab_To_v1_CronTab(in *CronTab, out *v1.CronTab, s conversion.Scope) error {
	if err := autoConvert_v1beta1_CronTab_To_v1_CronTab(in, out, s); err != nil {
		return err
	}
	out.Host, out.Port = "", ""
	if in.HostPort == "" {
		return nil
	}
	parts := strings.Split(in.HostPort, ":")
	if len(parts) != 2 {
		return errHostPort
	}
	out.Host, out.Port = parts[0], parts[1]
	return nil
}

// Convert_v1_CronTab_To_v1beta1_CronTab joins host and port into hostPort.
//
//nolint:revive // var-naming: the name is conversion-gen's convention, by which crdforge finds this hand-written conversion and its generated code calls it.
func Convert_v1_CronTab_To_v1beta1_CronTab(in *v1.CronTab, out *CronTab, s conversion.Scope) error {
	if err := autoConvert_v1_CronTab_To_v1beta1_CronTab(in, out, s); err != nil {
		return err
	}
	out.HostPort = ""
	if in.Host != "" || in.Port != "" {
		out.HostPort = in.Host + ":" + in.Port
	}
	return nil
}
