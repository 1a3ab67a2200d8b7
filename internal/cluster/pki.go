package cluster

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// pki is the throwaway cluster's key material, as PEM files in one
// directory: a CA, the API server's serving certificate, an admin client
// certificate (group system:masters) and the service-account key pair.
type pki struct {
	dir                             string
	caCert                          []byte // PEM
	adminCert, adminKey             []byte // PEM
	caFile, servingCert, servingKey string
	saPub, saKey                    string
}

// newPKI writes fresh keys and certificates, valid for a day, into dir.
func newPKI(dir string) (*pki, error) {
	p := &pki{
		dir:         dir,
		caFile:      filepath.Join(dir, "ca.crt"),
		servingCert: filepath.Join(dir, "apiserver.crt"),
		servingKey:  filepath.Join(dir, "apiserver.key"),
		saPub:       filepath.Join(dir, "sa.pub"),
		saKey:       filepath.Join(dir, "sa.key"),
	}
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	caTmpl := template("ctrlcmp-throwaway-ca", nil)
	caTmpl.IsCA, caTmpl.BasicConstraintsValid = true, true
	caTmpl.KeyUsage = x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		return nil, err
	}
	ca, err := x509.ParseCertificate(caDER)
	if err != nil {
		return nil, err
	}
	p.caCert = pemBlock("CERTIFICATE", caDER)

	serving := template("kube-apiserver", nil)
	serving.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}
	serving.IPAddresses = []net.IP{net.IPv4(127, 0, 0, 1), net.IPv4(10, 0, 0, 1)}
	serving.DNSNames = []string{"localhost", "kubernetes", "kubernetes.default", "kubernetes.default.svc"}
	servingCert, servingKey, err := leaf(serving, ca, caKey)
	if err != nil {
		return nil, err
	}
	admin := template("ctrlcmp-admin", []string{"system:masters"})
	admin.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}
	if p.adminCert, p.adminKey, err = leaf(admin, ca, caKey); err != nil {
		return nil, err
	}
	sa, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	saKey, err := x509.MarshalECPrivateKey(sa)
	if err != nil {
		return nil, err
	}
	saPub, err := x509.MarshalPKIXPublicKey(&sa.PublicKey)
	if err != nil {
		return nil, err
	}
	for path, data := range map[string][]byte{
		p.caFile: p.caCert, p.servingCert: servingCert, p.servingKey: servingKey,
		p.saKey: pemBlock("EC PRIVATE KEY", saKey), p.saPub: pemBlock("PUBLIC KEY", saPub),
	} {
		if err := os.WriteFile(path, data, 0o600); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// template is a certificate template for cn in organisations orgs.
func template(cn string, orgs []string) *x509.Certificate {
	serial, _ := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	return &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: cn, Organization: orgs},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
	}
}

// leaf signs a new key's certificate with the CA and returns both as PEM.
func leaf(tmpl, ca *x509.Certificate, caKey *ecdsa.PrivateKey) (cert, key []byte, err error) {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &k.PublicKey, caKey)
	if err != nil {
		return nil, nil, err
	}
	kder, err := x509.MarshalECPrivateKey(k)
	if err != nil {
		return nil, nil, err
	}
	return pemBlock("CERTIFICATE", der), pemBlock("EC PRIVATE KEY", kder), nil
}

func pemBlock(typ string, der []byte) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der})
}
