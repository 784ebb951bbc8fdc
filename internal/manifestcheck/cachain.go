package manifestcheck

import (
	"fmt"

	"sigs.k8s.io/yaml"
)

// CAChain checks that the cert-manager objects of stream issue the serving
// Certificate namespace/name from a CA of their own: the Certificate is
// signed by a CA Issuer, whose Secret a CA Certificate (isCA, keeping its
// key when renewed) is issued into by a self-signed Issuer. Then the ca.crt
// of the serving Certificate's Secret, which the CRDs' caBundle is injected
// from, is the CA, and stays the same when the serving certificate is
// renewed.
func CAChain(stream []byte, namespace, name string) error {
	objs, err := certManagerObjects(stream)
	if err != nil {
		return err
	}
	serving := objs.find("Certificate", namespace, func(o cmObject) bool { return o.Metadata.Name == name })
	if serving == nil {
		return fmt.Errorf("no Certificate %s/%s", namespace, name)
	}
	caIssuer, err := objs.issuerOf(serving)
	if err != nil {
		return err
	}
	if caIssuer.Spec.CA == nil || caIssuer.Spec.CA.SecretName == "" {
		return fmt.Errorf("the Certificate %s is signed by the Issuer %s, which is no CA Issuer (spec.ca.secretName): the caBundle would be the serving certificate itself", name, caIssuer.Metadata.Name)
	}
	secret := caIssuer.Spec.CA.SecretName
	ca := objs.find("Certificate", namespace, func(o cmObject) bool { return o.Spec.SecretName == secret })
	switch {
	case ca == nil:
		return fmt.Errorf("no Certificate issues the CA Issuer %s's Secret %s", caIssuer.Metadata.Name, secret)
	case !ca.Spec.IsCA:
		return fmt.Errorf("the Certificate %s, the CA of the Issuer %s, is not isCA", ca.Metadata.Name, caIssuer.Metadata.Name)
	case ca.Spec.PrivateKey == nil || ca.Spec.PrivateKey.RotationPolicy != "Never":
		return fmt.Errorf("CA Certificate %s: privateKey.rotationPolicy is not Never: a renewed CA would not trust the serving certificates it signed", ca.Metadata.Name)
	}
	root, err := objs.issuerOf(ca)
	if err != nil {
		return err
	}
	if root.Spec.SelfSigned == nil {
		return fmt.Errorf("CA Certificate %s is signed by Issuer %s, which is not self-signed", ca.Metadata.Name, root.Metadata.Name)
	}
	return nil
}

// cmObject is what CAChain reads of a cert-manager object.
type cmObject struct {
	APIVersion, Kind string
	Metadata         struct{ Name, Namespace string }
	Spec             struct {
		SecretName string
		IsCA       bool
		IssuerRef  struct{ Kind, Name string }
		PrivateKey *struct{ RotationPolicy string }
		CA         *struct{ SecretName string }
		SelfSigned *struct{}
	}
}

type cmObjects []cmObject

func certManagerObjects(stream []byte) (cmObjects, error) {
	var out cmObjects
	for i, doc := range separator.Split(string(stream), -1) {
		var o cmObject
		if err := yaml.Unmarshal([]byte(doc), &o); err != nil {
			return nil, fmt.Errorf("document %d: %w", i, err)
		}
		if o.APIVersion == "cert-manager.io/v1" {
			out = append(out, o)
		}
	}
	return out, nil
}

// find is the one object of kind in namespace that match says is sought.
func (objs cmObjects) find(kind, namespace string, match func(cmObject) bool) *cmObject {
	for i, o := range objs {
		if o.Kind == kind && o.Metadata.Namespace == namespace && match(o) {
			return &objs[i]
		}
	}
	return nil
}

// issuerOf is the namespaced Issuer that signs c.
func (objs cmObjects) issuerOf(c *cmObject) (*cmObject, error) {
	ref := c.Spec.IssuerRef
	if ref.Kind != "Issuer" {
		return nil, fmt.Errorf("the Certificate %s: issuerRef.kind %q, want the namespace's Issuer", c.Metadata.Name, ref.Kind)
	}
	is := objs.find("Issuer", c.Metadata.Namespace, func(o cmObject) bool { return o.Metadata.Name == ref.Name })
	if is == nil {
		return nil, fmt.Errorf("the Certificate %s: no Issuer %s/%s", c.Metadata.Name, c.Metadata.Namespace, ref.Name)
	}
	return is, nil
}
