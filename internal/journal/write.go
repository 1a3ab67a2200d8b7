package journal

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/ctrlcmp/ctrlcmp/internal/flock"
)

// Update puts r into the journal at path (see Splice), creating the file
// (and its directory) when it does not exist. It returns the journal's bytes before and after;
// with dryRun, or when nothing changed, the file is not touched. A failure
// to create or write the file is a *WriteError; any other error is about
// the journal as given (it cannot be read, or its fences are malformed).
func Update(path string, r Region, dryRun bool) (before, after []byte, err error) {
	if !dryRun {
		release, err := lockJournal(path)
		if err != nil {
			return nil, nil, &WriteError{Path: path, Err: err}
		}
		defer release()
	}
	before, err = os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, nil, fmt.Errorf("journal %s: %w", path, err)
	}
	after, err = Splice(before, r)
	if err != nil {
		return nil, nil, fmt.Errorf("journal %s: %w", path, err)
	}
	if dryRun || bytes.Equal(before, after) {
		return before, after, nil
	}
	if before == nil {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, nil, &WriteError{Path: path, Err: err}
		}
	}
	return before, after, WriteAtomic(path, after)
}

// WriteError is a journal that could not be written: it is read-only
// (ErrReadOnly), it is a symlink to nothing (ErrLinkToNothing), its
// directory could not be
// created, or writing the temporary file next to it or renaming that into
// place failed (permission denied, disk full). The journal is left as it
// was.
type WriteError struct {
	Path string // the journal
	Err  error  // the I/O error
}

func (e *WriteError) Error() string { return fmt.Sprintf("journal %s: %v", e.Path, e.Err) }
func (e *WriteError) Unwrap() error { return e.Err }

// ErrReadOnly is a journal its owner made read-only (no write permission in
// its mode), or one this process may not write to. ctrlcmp does not replace
// it, though renaming over it would succeed.
var ErrReadOnly = errors.New("read-only")

// ErrLinkToNothing is a journal that is a symlink to a file that does not
// exist: ctrlcmp neither creates that file nor replaces the link.
var ErrLinkToNothing = errors.New("a symlink to nothing")

// WriteAtomic replaces the file at path with data through a temporary file
// in the same directory and a rename, so a reader sees the old bytes or the
// new ones, never a mix. A symlink is written through: the file it leads to
// is replaced that way (the temporary file is made in that file's
// directory), and the link stays. An existing file keeps its mode; a new one
// is 0644. A read-only file is not replaced (ErrReadOnly). Its errors are
// *WriteError.
func WriteAtomic(path string, data []byte) error {
	target, err := linkTarget(path)
	if err != nil {
		return &WriteError{Path: path, Err: err}
	}
	mode := fs.FileMode(0o644)
	if st, err := os.Stat(target); err == nil {
		mode = st.Mode().Perm()
		if err := writable(target, mode); err != nil {
			if target != path {
				err = fmt.Errorf("the file it links to, %s, is %w", target, err)
			}
			return &WriteError{Path: path, Err: err}
		}
	}
	dir := filepath.Dir(target)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(target)+".ctrlcmp-*")
	if err != nil {
		return &WriteError{Path: path, Err: fmt.Errorf("cannot write next to %s: %w", target, err)}
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return &WriteError{Path: path, Err: err}
	}
	if err := tmp.Chmod(mode); err != nil {
		return &WriteError{Path: path, Err: err}
	}
	if err := tmp.Sync(); err != nil {
		return &WriteError{Path: path, Err: err}
	}
	if err := tmp.Close(); err != nil {
		return &WriteError{Path: path, Err: err}
	}
	if err := os.Rename(tmp.Name(), target); err != nil {
		return &WriteError{Path: path, Err: err}
	}
	done = true
	return nil
}

// linkTarget is the file a symlink at path leads to, through every link on
// the way, or path itself when it is no symlink (or does not exist yet). A
// link to nothing is an error.
func linkTarget(path string) (string, error) {
	st, err := os.Lstat(path)
	if err != nil || st.Mode()&fs.ModeSymlink == 0 {
		return path, nil
	}
	target, err := filepath.EvalSymlinks(path)
	if errors.Is(err, fs.ErrNotExist) {
		to, _ := os.Readlink(path)
		return "", fmt.Errorf("%w: it leads to %s, which does not exist; create that file, or replace the link with the journal", ErrLinkToNothing, to)
	}
	if err != nil {
		return "", fmt.Errorf("it is a symlink that cannot be followed: %w", err)
	}
	return target, nil
}

// writable returns ErrReadOnly (with the mode) when the file at path, of
// mode mode, has no write permission in its mode or cannot be opened for
// writing by this process; opening it changes nothing.
func writable(path string, mode fs.FileMode) error {
	if mode&0o222 == 0 {
		return fmt.Errorf("%w (mode %04o)", ErrReadOnly, mode)
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if errors.Is(err, fs.ErrPermission) {
		return fmt.Errorf("%w (mode %04o, and this user may not write to it)", ErrReadOnly, mode)
	}
	if err == nil {
		f.Close()
	}
	return nil
}

// lockJournal takes the lock of the journal at path, waiting for another
// writer to finish, so that two writers each keep the other's fence. The
// lock file lives in the user's cache directory (the temporary directory
// without one), named after the journal's absolute path with links
// resolved, never next to the journal.
func lockJournal(path string) (release func(), err error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	if dir, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		abs = filepath.Join(dir, filepath.Base(abs))
	}
	if target, err := filepath.EvalSymlinks(abs); err == nil {
		abs = target
	}
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir()
	}
	dir := filepath.Join(base, "ctrlcmp", "journal-locks")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("cannot create the lock directory: %w", err)
	}
	sum := sha256.Sum256([]byte(abs))
	f, err := os.OpenFile(filepath.Join(dir, hex.EncodeToString(sum[:8])+".lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("cannot open the journal's lock: %w", err)
	}
	if err := flock.Lock(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("cannot lock the journal: %w", err)
	}
	return func() {
		_ = flock.Unlock(f)
		f.Close()
	}, nil
}
