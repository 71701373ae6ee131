package suggest

import "testing"

func TestClosest(t *testing.T) {
	for _, tc := range []struct {
		word    string
		options []string
		want    string
	}{
		{"incldue", []string{"include", "exclude"}, "include"},
		{"mpc", []string{"mcp", "openai", "anthropic"}, "mcp"},
		{"antropic", []string{"mcp", "openai", "anthropic"}, "anthropic"},
		{"tgs", []string{"tags", "tools"}, "tags"},
		{"get_wether", []string{"get_weather", "get_time"}, "get_weather"},
		{"yaml", []string{"mcp", "openai"}, ""},          // nothing near
		{"ab", []string{"xy"}, ""},                       // two edits of two letters is a different word
		{"gemni", []string{"gemini", "gemma"}, "gemini"}, // the nearest wins
	} {
		if got := Closest(tc.word, tc.options); got != tc.want {
			t.Errorf("Closest(%q, %q) = %q, want %q", tc.word, tc.options, got, tc.want)
		}
	}
	if h := Hint("mpc", []string{"mcp"}); h != `; did you mean "mcp"?` {
		t.Errorf("Hint = %q", h)
	}
	if h := Hint("zzz", []string{"mcp"}); h != "" {
		t.Errorf("Hint of nothing near = %q", h)
	}
}
