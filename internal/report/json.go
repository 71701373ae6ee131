package report

import (
	"bytes"
	"encoding/json"
	"io"
)

// WriteJSON writes ov as JSON indented by two spaces, byte for byte what
// encoding/json's Encoder with that indent writes, but a tool at a time:
// the Encoder builds the whole text, and then its indented copy, before
// writing a byte, which for Stripe's 13.8 MB report was most of what the
// report held beyond its build.
func WriteJSON(w io.Writer, ov *Overview) error {
	if len(ov.Tools) == 0 {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(ov)
	}
	rest := *ov
	rest.Tools = []Tool{}
	frame, err := json.MarshalIndent(&rest, "", "  ")
	if err != nil {
		return err
	}
	// A newline inside a string is escaped, so this is the member itself.
	const empty = "\n  \"tools\": []"
	i := bytes.Index(frame, []byte(empty))
	if i < 0 {
		panic("report: the overview's JSON has no tools member") // Overview's fields changed
	}
	head, tail := frame[:i+len(empty)-1], frame[i+len(empty)-1:]
	if _, err := w.Write(head); err != nil {
		return err
	}
	for j := range ov.Tools {
		data, err := json.MarshalIndent(&ov.Tools[j], "    ", "  ")
		if err != nil {
			return err
		}
		sep := ",\n    "
		if j == 0 {
			sep = "\n    "
		}
		if _, err := io.WriteString(w, sep); err != nil {
			return err
		}
		if _, err := w.Write(data); err != nil {
			return err
		}
	}
	if _, err := io.WriteString(w, "\n  "); err != nil {
		return err
	}
	if _, err := w.Write(tail); err != nil {
		return err
	}
	_, err = io.WriteString(w, "\n")
	return err
}
