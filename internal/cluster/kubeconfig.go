package cluster

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"gopkg.in/yaml.v3"
)

// kubeconfigFile is the part of a kubeconfig the REST client uses.
type kubeconfigFile struct {
	CurrentContext string `yaml:"current-context"`
	Contexts       []struct {
		Name    string
		Context struct{ Cluster, User, Namespace string }
	}
	Clusters []struct {
		Name    string
		Cluster struct {
			Server                   string
			CertificateAuthority     string `yaml:"certificate-authority"`
			CertificateAuthorityData string `yaml:"certificate-authority-data"`
			InsecureSkipTLSVerify    bool   `yaml:"insecure-skip-tls-verify"`
		}
	}
	Users []struct {
		Name string
		User struct {
			ClientCertificate     string         `yaml:"client-certificate"`
			ClientCertificateData string         `yaml:"client-certificate-data"`
			ClientKey             string         `yaml:"client-key"`
			ClientKeyData         string         `yaml:"client-key-data"`
			Token                 string         `yaml:"token"`
			TokenFile             string         `yaml:"tokenFile"`
			Exec                  map[string]any `yaml:"exec"`
			AuthProvider          map[string]any `yaml:"auth-provider"`
		}
	}
}

// NewClient is a REST client for the current context of the kubeconfig at
// path: its server, CA, and client certificate or bearer token. Exec and
// auth-provider credentials are not run.
func NewClient(path string) (*Client, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("kubeconfig: %w", err)
	}
	var kc kubeconfigFile
	if err := yaml.Unmarshal(data, &kc); err != nil {
		return nil, fmt.Errorf("kubeconfig %s: %w", path, err)
	}
	base := filepath.Dir(path)
	file := func(p string) string {
		if p == "" || filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(base, p)
	}
	// bytesOf is inline base64 data, else the file's content.
	bytesOf := func(inline, p string) ([]byte, error) {
		if inline != "" {
			return base64.StdEncoding.DecodeString(inline)
		}
		if p == "" {
			return nil, nil
		}
		return os.ReadFile(file(p))
	}
	var clusterName, userName string
	for _, c := range kc.Contexts {
		if c.Name == kc.CurrentContext {
			clusterName, userName = c.Context.Cluster, c.Context.User
		}
	}
	if clusterName == "" {
		return nil, fmt.Errorf("kubeconfig %s: its current-context %q names no context with a cluster", path, kc.CurrentContext)
	}
	cl := &Client{}
	tlsConf := &tls.Config{MinVersion: tls.VersionTLS12}
	found := false
	for _, c := range kc.Clusters {
		if c.Name != clusterName {
			continue
		}
		found = true
		cl.server = c.Cluster.Server
		ca, err := bytesOf(c.Cluster.CertificateAuthorityData, c.Cluster.CertificateAuthority)
		if err != nil {
			return nil, fmt.Errorf("kubeconfig %s: certificate authority of cluster %s: %w", path, clusterName, err)
		}
		if ca != nil {
			tlsConf.RootCAs = x509.NewCertPool()
			tlsConf.RootCAs.AppendCertsFromPEM(ca)
		}
		tlsConf.InsecureSkipVerify = c.Cluster.InsecureSkipTLSVerify
	}
	if !found || cl.server == "" {
		return nil, fmt.Errorf("kubeconfig %s: no server for cluster %q", path, clusterName)
	}
	for _, u := range kc.Users {
		if u.Name != userName {
			continue
		}
		if u.User.Exec != nil || u.User.AuthProvider != nil {
			return nil, fmt.Errorf("kubeconfig %s: user %s gets its credentials from a plugin, which ctrlcmp does not run; give a kubeconfig with a client certificate or a token", path, userName)
		}
		cert, err := bytesOf(u.User.ClientCertificateData, u.User.ClientCertificate)
		if err != nil {
			return nil, fmt.Errorf("kubeconfig %s: client certificate of %s: %w", path, userName, err)
		}
		key, err := bytesOf(u.User.ClientKeyData, u.User.ClientKey)
		if err != nil {
			return nil, fmt.Errorf("kubeconfig %s: client key of %s: %w", path, userName, err)
		}
		if cert != nil {
			pair, err := tls.X509KeyPair(cert, key)
			if err != nil {
				return nil, fmt.Errorf("kubeconfig %s: client certificate of %s: %w", path, userName, err)
			}
			tlsConf.Certificates = []tls.Certificate{pair}
		}
		cl.token = u.User.Token
		if u.User.TokenFile != "" {
			t, err := os.ReadFile(file(u.User.TokenFile))
			if err != nil {
				return nil, fmt.Errorf("kubeconfig %s: token of %s: %w", path, userName, err)
			}
			cl.token = string(t)
		}
	}
	cl.http = &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{TLSClientConfig: tlsConf}}
	return cl, nil
}
