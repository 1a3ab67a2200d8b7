package cite

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// Anchor is what lets a citation be verified again later: the first eight
// hex digits of the SHA-256 of the cited line with its white space folded.
func Anchor(text string) string {
	sum := sha256.Sum256([]byte(strings.Join(strings.Fields(text), " ")))
	return hex.EncodeToString(sum[:4])
}
