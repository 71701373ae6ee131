package main

import "testing"

func TestNamespaceFor(t *testing.T) {
	for dir, want := range map[string]string{
		"tools/github": "github", "my tools": "my_tools", "_internal": "internal", "-x.y": "x.y",
		"wetter-äöü": "wetter-_", "___": "", "v1.2": "v1.2",
	} {
		if got := namespaceFor(dir); got != want {
			t.Errorf("namespaceFor(%q) = %q, want %q", dir, got, want)
		}
	}
}
