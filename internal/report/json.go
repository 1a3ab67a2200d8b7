package report

import (
	"encoding/json"
	"io"

	"github.com/ctrlcmp/ctrlcmp/internal/locate"
	"github.com/ctrlcmp/ctrlcmp/internal/result"
)

// Schema is the JSON schema id.
const Schema = "ctrlcmp/v1"

// Document is the JSON output.
type Document struct {
	Schema string        `json:"schema"`
	Trees  []result.Tree `json:"trees"`
}

// JSON writes the document.
func JSON(w io.Writer, trees ...result.Tree) error {
	doc := Document{Schema: Schema, Trees: trees}
	for i := range doc.Trees {
		if doc.Trees[i].Controllers == nil {
			doc.Trees[i].Controllers = []locate.Controller{}
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}
