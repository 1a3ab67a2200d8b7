package cli

import (
	"io"
	"os"
	"strconv"
	"strings"

	"golang.org/x/term"
)

// defaultTextWidth is the width text tables fit when neither $COLUMNS nor a
// terminal says otherwise (output piped to a file or a pager).
const defaultTextWidth = 100

// textWidth is the number of columns text tables are fitted to: $COLUMNS
// when it holds a positive number, else the width of the terminal when out
// is one, else defaultTextWidth.
func textWidth(out io.Writer) int {
	if n, err := strconv.Atoi(strings.TrimSpace(os.Getenv("COLUMNS"))); err == nil && n > 0 {
		return n
	}
	if f, ok := out.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		if w, _, err := term.GetSize(int(f.Fd())); err == nil && w > 0 {
			return w
		}
	}
	return defaultTextWidth
}
