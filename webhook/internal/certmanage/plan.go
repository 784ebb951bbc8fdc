// Package certmanage keeps the conversion webhook's certificates without
// cert-manager (webhook --manage-certs): one replica, elected through a
// Lease, keeps a CA and a serving certificate in a Secret, renews them, and
// writes the CA bundle into the CRDs the webhook serves; every replica reads
// the Secret and writes its pair into --cert-dir, where the server's
// certificate reloading picks it up.
//
// This file decides, from what the Secret holds and the time, what it must
// hold next; it reads no clock and no cluster, so its tests set the time.
package certmanage

import (
	"bytes"
	"crypto/x509"
	"slices"
	"time"

	"github.com/crdforge/crdforge/webhook/pki"
)

// Policy is how long certificates live and how a CA is replaced.
type Policy struct {
	// Hosts are the serving certificate's DNS names and IP addresses.
	Hosts []string
	// CAValidity and LeafValidity are how long a new CA and a new serving
	// certificate are valid. Each is renewed once less than a third of it
	// is left.
	CAValidity, LeafValidity time.Duration
	// Overlap is how long the replaced CA stays in the bundle after a
	// rotation: longer than it takes every replica to serve the new leaf
	// (their Secret sync period) and the API server to reload the bundle.
	Overlap time.Duration
	// CommonName is the CA's.
	CommonName string
}

// State is what the Secret holds.
type State struct {
	// CA signs Leaf; nil when the Secret holds none, or none that loads.
	CA *pki.CA
	// Leaf is the serving certificate; nil when absent or broken.
	Leaf *pki.Serving
	// Previous is the CA replaced at RotatedAt, kept in the bundle for
	// Policy.Overlap so that a replica still serving a leaf it signed is
	// trusted; nil when none.
	Previous  *x509.Certificate
	RotatedAt time.Time
}

// Bundle is the caBundle the CRDs need for s: the CA, then the previous CA
// while it overlaps.
func (s State) Bundle() []byte {
	var b []byte
	if s.CA != nil {
		b = append(b, s.CA.CertPEM...)
	}
	if s.Previous != nil {
		b = append(b, pemOf(s.Previous)...)
	}
	return b
}

// renewDue reports whether a certificate valid until notAfter, meant to
// live for validity, has less than a third of that left at now.
func renewDue(notAfter time.Time, validity time.Duration, now time.Time) bool {
	return !now.Before(notAfter.Add(-validity / 3))
}

// Next returns what the Secret must hold at now, and why it changed; no
// reasons means s is as it should be. Each step keeps the serving
// certificate trusted all along: a new CA goes into the bundle while the
// previous one stays there for p.Overlap.
func Next(s State, p Policy, now time.Time) (State, []string, error) {
	var why []string
	switch {
	case s.CA == nil:
		ca, err := pki.NewCA(p.CommonName, now, p.CAValidity)
		if err != nil {
			return s, nil, err
		}
		s = State{CA: ca}
		why = append(why, "no CA")
	case renewDue(s.CA.Cert.NotAfter, p.CAValidity, now):
		ca, err := pki.NewCA(p.CommonName, now, p.CAValidity)
		if err != nil {
			return s, nil, err
		}
		s = State{CA: ca, Leaf: s.Leaf, Previous: s.CA.Cert, RotatedAt: now}
		why = append(why, "CA rotation")
	}
	if s.Previous != nil && !now.Before(s.RotatedAt.Add(p.Overlap)) {
		s.Previous, s.RotatedAt = nil, time.Time{}
		why = append(why, "the previous CA's overlap ended")
	}
	if reason := leafReason(s, p, now); reason != "" {
		leaf, err := s.CA.Issue(p.Hosts, now, p.LeafValidity)
		if err != nil {
			return s, nil, err
		}
		s.Leaf = leaf
		why = append(why, reason)
	}
	return s, why, nil
}

// leafReason says why s needs a new serving certificate, or "" when its
// leaf is signed by its CA, names exactly p.Hosts and is not due.
func leafReason(s State, p Policy, now time.Time) string {
	switch {
	case s.Leaf == nil:
		return "no serving certificate"
	case s.Leaf.Cert.CheckSignatureFrom(s.CA.Cert) != nil:
		return "serving certificate of another CA"
	case !slices.Equal(hostsOf(s.Leaf.Cert), p.Hosts):
		return "serving certificate for other hosts"
	case renewDue(s.Leaf.Cert.NotAfter, p.LeafValidity, now):
		return "serving certificate renewal"
	}
	return ""
}

// hostsOf lists a certificate's hosts in the order pki.CA.Issue took them:
// Issue files DNS names and IP addresses apart, so hosts are compared in
// that order too (see Options.complete, which sorts them so).
func hostsOf(c *x509.Certificate) []string {
	hosts := slices.Clone(c.DNSNames)
	for _, ip := range c.IPAddresses {
		hosts = append(hosts, ip.String())
	}
	return hosts
}

// union is the bundle of a and b with no certificate twice, a's first: the
// bundle the CRDs hold while the Secret moves from one state to another.
func union(a, b []byte) []byte {
	out := append([]byte(nil), a...)
	for _, c := range splitPEM(b) {
		if !bytes.Contains(a, c) {
			out = append(out, c...)
		}
	}
	return out
}
