package toolcall

import (
	"fmt"
	"io"

	"github.com/toolc-dev/toolc/canonical"
)

// MarshalJSON encodes the call as one record: {"id", "arguments"}, with
// "source": {"name", "arguments"} when the source takes it otherwise
// (Transformed) and "headers": {name: value} when it sends any.
func (c *Call) MarshalJSON() ([]byte, error) {
	args, err := canonical.ParseJSON(c.Arguments)
	if err != nil {
		return nil, err
	}
	rec := canonical.NewObject()
	rec.Set("id", canonical.NewString(c.ID))
	rec.Set("arguments", args)
	if c.Transformed() {
		src, err := canonical.ParseJSON(c.SourceArguments)
		if err != nil {
			return nil, err
		}
		fwd := canonical.NewObject()
		fwd.Set("name", canonical.NewString(c.SourceName))
		fwd.Set("arguments", src)
		rec.Set("source", fwd)
	}
	if headers, _ := c.Headers(); len(headers) > 0 {
		hs := canonical.NewObject()
		for _, h := range headers {
			hs.Set(h.Name, canonical.NewString(h.Value))
		}
		rec.Set("headers", hs)
	}
	return rec.AppendJSON(nil, ""), nil
}

// WriteText writes the call for a person: the tool's ID, the arguments
// indented, a line per header it sends, and, when the source takes it
// otherwise, the source's name and arguments.
func (c *Call) WriteText(w io.Writer) error {
	args, err := canonical.ParseJSON(c.Arguments)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%s\n%s\n", c.ID, args.AppendJSON(nil, "  "))
	headers, _ := c.Headers()
	for _, h := range headers {
		fmt.Fprintf(w, "%s: %s\n", h.Name, h.Value)
	}
	if c.Transformed() {
		src, err := canonical.ParseJSON(c.SourceArguments)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(w, "as the source takes it: %s\n%s\n", c.SourceName, src.AppendJSON(nil, "  "))
		return err
	}
	return nil
}
