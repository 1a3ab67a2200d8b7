package cluster

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// Client is a small REST client of the Kubernetes API: enough to apply
// CRDs and create, replace and delete objects given as YAML documents.
type Client struct {
	server string
	token  string
	http   *http.Client
}

// Object is one Kubernetes object as decoded from YAML or JSON.
type Object map[string]any

// Kind is the object's kind.
func (o Object) Kind() string { s, _ := o["kind"].(string); return s }

// APIVersion is the object's apiVersion.
func (o Object) APIVersion() string { s, _ := o["apiVersion"].(string); return s }

func (o Object) meta() map[string]any {
	m, _ := o["metadata"].(map[string]any)
	return m
}

// Name is metadata.name.
func (o Object) Name() string { s, _ := o.meta()["name"].(string); return s }

// Namespace is metadata.namespace.
func (o Object) Namespace() string { s, _ := o.meta()["namespace"].(string); return s }

// ResourceVersion is metadata.resourceVersion.
func (o Object) ResourceVersion() string { s, _ := o.meta()["resourceVersion"].(string); return s }

// String names the object as kind namespace/name.
func (o Object) String() string {
	if ns := o.Namespace(); ns != "" {
		return o.Kind() + " " + ns + "/" + o.Name()
	}
	return o.Kind() + " " + o.Name()
}

// ReadObjects reads the YAML (or JSON) documents of a file, skipping empty
// ones. Each must have an apiVersion, a kind and a metadata.name.
func ReadObjects(path string) ([]Object, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var objs []Object
	for {
		var m map[string]any // not Object: yaml.v3 would make every nested mapping one
		err := dec.Decode(&m)
		o := Object(m)
		if errors.Is(err, io.EOF) {
			return objs, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if len(o) == 0 {
			continue
		}
		if o.APIVersion() == "" || o.Kind() == "" || o.Name() == "" {
			return nil, fmt.Errorf("%s: a document without apiVersion, kind or metadata.name; each document must be one Kubernetes object", path)
		}
		objs = append(objs, o)
	}
}

// StatusError is an API error answer.
type StatusError struct {
	Code    int
	Reason  string
	Message string
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("%d %s: %s", e.Code, e.Reason, e.Message)
}

// IsStatus says whether err is an API answer with HTTP status code.
func IsStatus(err error, code int) bool {
	var se *StatusError
	return errors.As(err, &se) && se.Code == code
}

// do sends a request with a JSON body (when body is not nil) and decodes a
// JSON answer into out (when not nil).
func (c *Client) do(ctx context.Context, method, path string, body any, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return fmt.Errorf("encode %s %s: %w", method, path, err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.server+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+strings.TrimSpace(c.token))
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode >= 300 {
		var st struct{ Reason, Message string }
		_ = json.Unmarshal(data, &st)
		if st.Message == "" {
			st.Message = strings.TrimSpace(string(data))
		}
		return &StatusError{Code: resp.StatusCode, Reason: st.Reason, Message: fmt.Sprintf("%s %s: %s", method, path, st.Message)}
	}
	if out != nil {
		return json.Unmarshal(data, out)
	}
	return nil
}

// Get reads a path (such as /readyz or /version) and returns its body.
func (c *Client) Get(ctx context.Context, path string, out any) error {
	return c.do(ctx, http.MethodGet, path, nil, out)
}

// resource is where the objects of one kind are served.
type resource struct {
	name       string // plural, e.g. configmaps
	namespaced bool
}

// resourceOf finds the resource of the object's kind through discovery.
func (c *Client) resourceOf(ctx context.Context, o Object) (resource, error) {
	path := "/apis/" + o.APIVersion()
	if !strings.Contains(o.APIVersion(), "/") {
		path = "/api/" + o.APIVersion()
	}
	var list struct {
		Resources []struct {
			Name, Kind string
			Namespaced bool
		}
	}
	if err := c.Get(ctx, path, &list); err != nil {
		return resource{}, fmt.Errorf("find the resource of %s: %w", o, err)
	}
	for _, r := range list.Resources {
		if r.Kind == o.Kind() && !strings.Contains(r.Name, "/") {
			return resource{r.Name, r.Namespaced}, nil
		}
	}
	return resource{}, fmt.Errorf("the API server does not serve kind %s in %s; apply its CRD first", o.Kind(), o.APIVersion())
}

// paths are the collection and item paths of the object.
func (c *Client) paths(ctx context.Context, o Object) (collection, item string, err error) {
	r, err := c.resourceOf(ctx, o)
	if err != nil {
		return "", "", err
	}
	base := "/apis/" + o.APIVersion()
	if !strings.Contains(o.APIVersion(), "/") {
		base = "/api/" + o.APIVersion()
	}
	if r.namespaced {
		ns := o.Namespace()
		if ns == "" {
			ns = "default"
		}
		base += "/namespaces/" + ns
	}
	collection = base + "/" + r.name
	return collection, collection + "/" + o.Name(), nil
}

// Create creates the object and returns it as the server stored it.
func (c *Client) Create(ctx context.Context, o Object) (Object, error) {
	coll, _, err := c.paths(ctx, o)
	if err != nil {
		return nil, err
	}
	var out Object
	return out, c.do(ctx, http.MethodPost, coll, o, &out)
}

// Read reads the object's current state from the server.
func (c *Client) Read(ctx context.Context, o Object) (Object, error) {
	_, item, err := c.paths(ctx, o)
	if err != nil {
		return nil, err
	}
	var out Object
	return out, c.do(ctx, http.MethodGet, item, nil, &out)
}

// Update writes the object as given (its resourceVersion, when set, must
// be current or the answer is a 409 conflict).
func (c *Client) Update(ctx context.Context, o Object) (Object, error) {
	_, item, err := c.paths(ctx, o)
	if err != nil {
		return nil, err
	}
	var out Object
	return out, c.do(ctx, http.MethodPut, item, o, &out)
}

// Replace replaces the object with o (status and server-set metadata
// kept), retrying a few times when a concurrent write wins.
func (c *Client) Replace(ctx context.Context, o Object) (Object, error) {
	var err error
	for range 5 {
		var cur Object
		if cur, err = c.Read(ctx, o); err != nil {
			return nil, err
		}
		next := Object{}
		for k, v := range o {
			next[k] = v
		}
		meta := map[string]any{}
		for k, v := range cur.meta() {
			meta[k] = v
		}
		for k, v := range o.meta() {
			meta[k] = v
		}
		next["metadata"] = meta
		if st, ok := cur["status"]; ok {
			next["status"] = st
		}
		var out Object
		if out, err = c.Update(ctx, next); err == nil || !IsStatus(err, http.StatusConflict) {
			return out, err
		}
	}
	return nil, err
}

// Delete deletes the object; an object already gone is no error.
func (c *Client) Delete(ctx context.Context, o Object) error {
	_, item, err := c.paths(ctx, o)
	if err != nil {
		return err
	}
	err = c.do(ctx, http.MethodDelete, item, nil, nil)
	if IsStatus(err, http.StatusNotFound) {
		return nil
	}
	return err
}

// WaitGone waits until the object is gone (its finalizers removed) or
// timeout passes.
func (c *Client) WaitGone(ctx context.Context, o Object, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		_, err := c.Read(ctx, o)
		if IsStatus(err, http.StatusNotFound) {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s still exists %s after its delete (a finalizer not removed?)", o, timeout)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// crdPath is where CustomResourceDefinitions are served.
const crdPath = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"

// EnsureCRD creates the CRD unless one of its name exists, which it never
// replaces (in the user's cluster, a CRD is a schema the user's other
// workloads rely on), and waits until it is Established (its kind is
// served). created says whether this call made it.
func (c *Client) EnsureCRD(ctx context.Context, crd Object) (created bool, err error) {
	err = c.do(ctx, http.MethodPost, crdPath, crd, nil)
	switch {
	case err == nil:
		created = true
	case IsStatus(err, http.StatusConflict):
	default:
		return false, fmt.Errorf("create %s: %w", crd, err)
	}
	return created, c.waitEstablished(ctx, crd)
}

// DeleteCRD deletes the CRD (and with it every object of its kind); one
// already gone is no error.
func (c *Client) DeleteCRD(ctx context.Context, crd Object) error {
	err := c.do(ctx, http.MethodDelete, crdPath+"/"+crd.Name(), nil, nil)
	if err != nil && !IsStatus(err, http.StatusNotFound) {
		return fmt.Errorf("delete %s: %w", crd, err)
	}
	return nil
}

// waitEstablished waits until the CRD's kind is served.
func (c *Client) waitEstablished(ctx context.Context, crd Object) error {
	deadline := time.Now().Add(30 * time.Second)
	for {
		var cur struct {
			Status struct {
				Conditions []struct{ Type, Status string }
			}
		}
		if err := c.do(ctx, http.MethodGet, crdPath+"/"+crd.Name(), nil, &cur); err != nil {
			return err
		}
		for _, cond := range cur.Status.Conditions {
			if cond.Type == "Established" && cond.Status == "True" {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s not Established after 30s", crd)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// Server is the API server's URL.
func (c *Client) Server() string { return c.server }

// Transport is the client's HTTP transport: it trusts the server's CA and
// presents the client certificate (a bearer token, when the kubeconfig has
// one, is added per request and is not part of it).
func (c *Client) Transport() http.RoundTripper { return c.http.Transport }
