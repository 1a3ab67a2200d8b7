package journal

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Update puts r into the journal at path (see Splice), creating the file
// (and its directory) when it does not exist. It returns the journal's bytes before and after;
// with dryRun, or when nothing changed, the file is not touched. A failure
// to create or write the file is a *WriteError; any other error is about
// the journal as given (it cannot be read, or its fences are malformed).
func Update(path string, r Region, dryRun bool) (before, after []byte, err error) {
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

// WriteError is a journal that could not be written: its directory could
// not be created, or writing the temporary file next to it or renaming that
// into place failed (permission denied, disk full). The journal is left as
// it was.
type WriteError struct {
	Path string // the journal
	Err  error  // the I/O error
}

func (e *WriteError) Error() string { return fmt.Sprintf("journal %s: %v", e.Path, e.Err) }
func (e *WriteError) Unwrap() error { return e.Err }

// WriteAtomic replaces the file at path with data through a temporary file
// in the same directory and a rename, so a reader sees the old bytes or the
// new ones, never a mix. An existing file keeps its mode; a new one is 0644.
// Its errors are *WriteError.
func WriteAtomic(path string, data []byte) error {
	mode := fs.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm()
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".ctrlcmp-*")
	if err != nil {
		return &WriteError{Path: path, Err: fmt.Errorf("cannot write next to it: %w", err)}
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
	if err := os.Rename(tmp.Name(), path); err != nil {
		return &WriteError{Path: path, Err: err}
	}
	done = true
	return nil
}
