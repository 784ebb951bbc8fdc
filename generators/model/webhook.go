package model

import (
	"fmt"
	"slices"
	"strings"

	"github.com/crdforge/crdforge/internal/diag"
	"github.com/crdforge/crdforge/markers"
)

// Webhook is the one conversion webhook that serves every kind of the module
// whose conversion strategy is Webhook, as those kinds' markers configure it:
// what the deploy generator deploys, and what crdforge certs makes
// certificates for.
type Webhook struct {
	// Project is the model's project name; App, <project>-webhook, names
	// the Deployment and its pods' app.kubernetes.io/name label.
	Project, App string
	// Namespace and Service are where the CRDs' conversion stanzas point.
	Namespace, Service string
	// Ports are the Service ports the kinds use, sorted; each forwards to
	// the port the webhook binary listens on.
	Ports []Port
	// SecretName is the Secret holding tls.crt and tls.key: <service>-cert,
	// whether cert-manager or crdforge certs writes it.
	SecretName string
	// Certificate is the cert-manager Certificate the CRDs' inject-ca-from
	// annotation names; nil when no kind asks for CA injection.
	Certificate *Certificate
	// Issuer is the self-signed cert-manager Issuer of Certificate.
	Issuer string
	// Kinds are the kinds converted by the webhook, in the model's order.
	Kinds []*Kind
}

// Port is one port of the webhook's Service.
type Port struct {
	Name string
	Port int32
}

// Certificate is a cert-manager Certificate.
type Certificate struct {
	Namespace, Name string
}

// DNSNames are the names cert-manager puts in the serving certificate: the
// API server calls <service>.<namespace>.svc.
func (w *Webhook) DNSNames() []string {
	host := w.Service + "." + w.Namespace + ".svc"
	return []string{host, host + ".cluster.local"}
}

// ResolveWebhook gathers the module's conversion webhook from the kinds
// whose strategy is Webhook. It returns nil when there is none, and nil with
// an error in diags when the kinds cannot share one webhook: they name
// different Services, or different cert-manager Certificates, or a
// Certificate outside the Service's namespace, whose Secret the Deployment
// could not mount. Builder.Finish sets Model.Webhook from it when asked to.
func (m *Model) ResolveWebhook(diags *diag.List) *Webhook {
	var w *Webhook
	var first, certFrom *Kind
	ok := true
	for _, g := range m.Groups {
		for _, k := range g.Kinds {
			conv := k.Conversion
			if conv.Strategy != markers.StrategyWebhook {
				continue
			}
			svc := conv.Service
			if first == nil {
				first = k
				w = &Webhook{
					Project:    m.Project,
					App:        m.Project + "-webhook",
					Namespace:  svc.Namespace,
					Service:    svc.Name,
					SecretName: svc.Name + "-cert",
					Issuer:     m.Project + "-selfsigned-issuer",
				}
			} else if svc.Name != w.Service || svc.Namespace != w.Namespace {
				diags.Errorf(conv.Pos, "%s converts through Service %s/%s, but %s through %s/%s",
					k.qualified(), svc.Namespace, svc.Name, first.qualified(), w.Namespace, w.Service).
					Note("%s's is set at %s", first.qualified(), m.where(first.Conversion.Pos)).
					Note("one webhook Deployment serves every kind of %s", m.Project).
					Help("name the same Service for every kind")
				ok = false
				continue
			}
			w.Kinds = append(w.Kinds, k)
			if !slices.ContainsFunc(w.Ports, func(p Port) bool { return p.Port == svc.Port }) {
				w.Ports = append(w.Ports, Port{Port: svc.Port})
			}
			if !conv.InjectCA {
				continue
			}
			ns, name, _ := strings.Cut(conv.Certificate, "/")
			switch {
			case certFrom == nil && ns != svc.Namespace:
				diags.Errorf(conv.Pos, "cert-manager Certificate %s of %s is not in the webhook's namespace %s", conv.Certificate, k.qualified(), svc.Namespace).
					Note("cert-manager writes the serving certificate's Secret beside the Certificate, where the webhook's pods could not mount it")
				ok = false
			case certFrom == nil:
				certFrom = k
				w.Certificate = &Certificate{Namespace: ns, Name: name}
			case conv.Certificate != certFrom.Conversion.Certificate:
				diags.Errorf(conv.Pos, "%s names cert-manager Certificate %s, but %s names %s",
					k.qualified(), conv.Certificate, certFrom.qualified(), certFrom.Conversion.Certificate).
					Note("%s's is set at %s", certFrom.qualified(), m.where(certFrom.Conversion.Pos)).
					Note("one webhook serves every kind with one certificate").
					Help("name the same Certificate for every kind")
				ok = false
			}
		}
	}
	if w == nil || !ok {
		return nil
	}
	slices.SortFunc(w.Ports, func(a, b Port) int { return int(a.Port) - int(b.Port) })
	for i := range w.Ports {
		w.Ports[i].Name = "https"
		if len(w.Ports) > 1 {
			w.Ports[i].Name = fmt.Sprintf("https-%d", w.Ports[i].Port)
		}
	}
	return w
}
