package redact

import "testing"

func TestURLs(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"https://user:ghp_TOKEN@github.com/o/r", "https://github.com/o/r"},
		{"https://ghp_TOKEN@github.com/o/r.git", "https://github.com/o/r.git"},
		{"http://x-access-token:a@b@127.0.0.1:9/repo", "http://127.0.0.1:9/repo"},
		{"https://user:pw@host", "https://host"},
		{"https://user:pw@host?q=1", "https://host?q=1"},
		{"ssh://git:secret@host/r", "ssh://host/r"},
		{"fetching abc from https://u:p@h/r failed: Get \"https://u:***@h/r/info/refs\": EOF", "fetching abc from https://h/r failed: Get \"https://h/r/info/refs\": EOF"},
		{"two: https://a:b@h1/x and git://c@h2/y", "two: https://h1/x and git://h2/y"},
		{"https://github.com/o/r/blob/sha/a@b.go#L1", "https://github.com/o/r/blob/sha/a@b.go#L1"},
		{"git@github.com:o/r.git", "git@github.com:o/r.git"},
		{"mail me at a@b.c", "mail me at a@b.c"},
		{"module@v1.2.3/path.go:4", "module@v1.2.3/path.go:4"},
		{"", ""},
	} {
		if got := URLs(tc.in); got != tc.want {
			t.Errorf("URLs(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
