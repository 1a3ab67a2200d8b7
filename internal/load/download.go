package load

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"golang.org/x/mod/module"
)

// Download brings the module path at version into the Go module cache as
// the go command fetches a dependency (`go mod download -json`: through
// $GOPROXY, its checksum checked against $GOSUMDB), and returns the
// module's directory there. The go command runs in an empty temporary
// directory, so no go.mod or go.work applies, with the toolchain local, and
// nothing is built or run. A failure names the module and says what the go
// command said.
func Download(ctx context.Context, path, version string) (string, error) {
	if err := module.Check(path, version); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp("", "ctrlcmp-download-")
	if err != nil {
		return "", fmt.Errorf("downloading %s@%s: %w", path, version, err)
	}
	defer os.RemoveAll(tmp)
	// -mod=mod last, so that a -mod=vendor in the user's GOFLAGS, which
	// means nothing outside a module, does not stop the go command.
	env := append(untrustedEnv(ctx), "GOFLAGS="+strings.TrimSpace(os.Getenv("GOFLAGS")+" -mod=mod"))
	cmd := goCommand(ctx, tmp, env, "mod", "download", "-json", path+"@"+version)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, runErr := cmd.Output()
	var m struct{ Dir, Error string }
	if err := json.Unmarshal(out, &m); err == nil && m.Error != "" {
		return "", fmt.Errorf("go mod download: %s", m.Error)
	}
	if errors.Is(runErr, exec.ErrNotFound) {
		return "", fmt.Errorf("go mod download %s@%s: %s", path, version, goMissing)
	}
	if runErr != nil || m.Dir == "" {
		// A citation's verdict is one line: the go command's first says why.
		first, _, _ := strings.Cut(strings.TrimSpace(stderr.String()), "\n")
		return "", fmt.Errorf("go mod download %s@%s failed (%v): %s", path, version, runErr, first)
	}
	return m.Dir, nil
}
