package fetch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/pktline"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp"
	"github.com/go-git/go-git/v5/plumbing/transport"
	"github.com/go-git/go-git/v5/utils/ioutil"
)

// gitProtocol is the git:// protocol for fetching, over connections that
// keep a fetch's limits (go-git's own dials with no timeout and reads with
// no deadline). Pushing is left to go-git's transport, embedded.
type gitProtocol struct {
	transport.Transport
}

func (gitProtocol) NewUploadPackSession(ep *transport.Endpoint, auth transport.AuthMethod) (transport.UploadPackSession, error) {
	if auth != nil {
		return nil, transport.ErrInvalidAuthMethod
	}
	return &gitSession{ep: ep}, nil
}

// gitSession is one git-upload-pack conversation with a git daemon. It
// connects when first asked for the references, with the caller's context.
type gitSession struct {
	ep      *transport.Endpoint
	conn    net.Conn
	stop    func() bool // stops closing conn when the context is done
	advRefs *packp.AdvRefs
	packRun bool // a pack was asked for: the server ends the conversation
}

func (s *gitSession) AdvertisedReferences() (*packp.AdvRefs, error) {
	return s.AdvertisedReferencesContext(context.Background())
}

// AdvertisedReferencesContext connects and reads the server's references
// and capabilities, once.
func (s *gitSession) AdvertisedReferencesContext(ctx context.Context) (*packp.AdvRefs, error) {
	if s.advRefs != nil {
		return s.advRefs, nil
	}
	if err := s.connect(ctx); err != nil {
		return nil, err
	}
	ar := packp.NewAdvRefs()
	if err := ar.Decode(s.conn); err != nil {
		var errLine *pktline.ErrorLine
		switch {
		case errors.As(err, &errLine) && notFound(errLine.Text):
			return nil, transport.ErrRepositoryNotFound
		case errors.Is(err, packp.ErrEmptyAdvRefs):
			return nil, transport.ErrEmptyRemoteRepository
		case errors.Is(err, packp.ErrEmptyInput):
			return nil, io.ErrUnexpectedEOF
		}
		return nil, err
	}
	if ar.IsEmpty() {
		return nil, transport.ErrEmptyRemoteRepository
	}
	transport.FilterUnsupportedCapabilities(ar.Capabilities)
	s.advRefs = ar
	return ar, nil
}

// connect dials the daemon and asks it for git-upload-pack of the
// endpoint's path. The connection is closed when ctx is done, which ends
// any read or write waiting on it.
func (s *gitSession) connect(ctx context.Context) error {
	port := s.ep.Port
	if port <= 0 {
		port = 9418
	}
	conn, err := dial(ctx, "tcp", net.JoinHostPort(s.ep.Host, strconv.Itoa(port)))
	if err != nil {
		return err
	}
	s.conn = conn
	s.stop = context.AfterFunc(ctx, func() { conn.Close() })
	host := s.ep.Host
	if port != 9418 {
		host = net.JoinHostPort(s.ep.Host, strconv.Itoa(port))
	}
	req := packp.GitProtoRequest{RequestCommand: transport.UploadPackServiceName, Pathname: s.ep.Path, Host: host}
	return req.Encode(conn)
}

// UploadPack asks for the pack of req and returns the server's response,
// its pack to be read. The request goes out in one write, so that a server
// refusing a want hears all of it; when the write fails all the same, the
// server's own reason (an ERR line, such as "not our ref") is the error.
func (s *gitSession) UploadPack(ctx context.Context, req *packp.UploadPackRequest) (*packp.UploadPackResponse, error) {
	if req.IsEmpty() {
		return nil, transport.ErrEmptyUploadPackRequest
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	if _, err := s.AdvertisedReferencesContext(ctx); err != nil {
		return nil, err
	}
	var msg bytes.Buffer
	if err := req.UploadRequest.Encode(&msg); err != nil {
		return nil, fmt.Errorf("encoding the upload request: %w", err)
	}
	if err := req.UploadHaves.Encode(&msg, true); err != nil {
		return nil, fmt.Errorf("encoding the haves: %w", err)
	}
	if err := pktline.NewEncoder(&msg).EncodeString("done\n"); err != nil {
		return nil, err
	}
	s.packRun = true
	if _, err := s.conn.Write(msg.Bytes()); err != nil {
		return nil, s.serverReason(err)
	}
	r, err := ioutil.NonEmptyReader(s.conn)
	if errors.Is(err, ioutil.ErrEmptyReader) {
		return nil, transport.ErrEmptyUploadPackRequest
	}
	if err != nil {
		return nil, err
	}
	res := packp.NewUploadPackResponse(req)
	if err := res.Decode(ioutil.NewReadCloser(r, s)); err != nil {
		return nil, fmt.Errorf("decoding the upload-pack response: %w", err)
	}
	return res, nil
}

// serverReason returns the ERR line a server sent before it hung up on a
// request, or writeErr when it sent none (or did not hang up, but stopped
// reading).
func (s *gitSession) serverReason(writeErr error) error {
	if isTimeout(writeErr) {
		return writeErr
	}
	var errLine pktline.ErrorLine
	if err := errLine.Decode(s.conn); err == nil {
		return &errLine
	}
	return writeErr
}

// Close ends the conversation: with a flush when no pack was asked for, as
// git does, then by closing the connection.
func (s *gitSession) Close() error {
	if s.conn == nil {
		return nil
	}
	s.stop()
	if !s.packRun {
		_, _ = s.conn.Write(pktline.FlushPkt)
	}
	err := s.conn.Close()
	s.conn = nil
	return err
}

// notFound tells whether a git daemon's ERR line says that it has no such
// repository (or will not say whether it has).
func notFound(text string) bool {
	for _, s := range []string{"no such repository", "not found", "access denied", "not exported", "does not appear to be a git repository"} {
		if strings.Contains(text, s) {
			return true
		}
	}
	return false
}
