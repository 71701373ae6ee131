package words

import (
	"strings"
	"testing"
)

// TestName: the security lint's splitting of names, as it was tested there.
func TestName(t *testing.T) {
	for in, want := range map[string]string{"delete_repo": "delete repo", "dropTable": "drop table", "HTTPGet": "httpget", "math.lcm": "math lcm",
		"__a__b": "a b", "x": "x", "": "", "_-.": "", "getHTTPResponse2": "get httpresponse2", "read file": "read file", "ÄpfelZählen": "äpfel zählen"} {
		got := Name(in)
		if strings.Join(got, " ") != want {
			t.Errorf("Name(%q) = %q, want %q", in, got, want)
		}
		if n := Count(in); n != len(got) {
			t.Errorf("Count(%q) = %d, want %d", in, n, len(got))
		}
	}
}

// TestRestates: a description that is the name again, in any case and
// punctuation, restates it; one that says more, or nothing, does not.
func TestRestates(t *testing.T) {
	for _, c := range []struct {
		text, name string
		want       bool
	}{
		{"Get me.", "get_me", true}, {"get-me", "getMe", true}, {"Delete repo", "delete_repo", true},
		{"Gets the signed-in user.", "get_me", false}, {"", "get_me", false}, {"getMe", "get_me", false},
	} {
		if got := Restates(c.text, c.name); got != c.want {
			t.Errorf("Restates(%q, %q) = %v, want %v", c.text, c.name, got, c.want)
		}
	}
}
