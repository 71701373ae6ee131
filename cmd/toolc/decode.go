package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/manifest"
	"github.com/toolc-dev/toolc/internal/pipeline"
	"github.com/toolc-dev/toolc/toolcall"
)

func newDecode(a *app) *cobra.Command {
	var dir, manifestFile, target, name, namespace string
	cmd := command("decode --target T --name N [--namespace NS] [-C DIR] [--manifest FILE] ARGS.json|-", "Turn a model's tool call back into the catalog's terms")
	cmd.Args = cobra.ExactArgs(1)
	cmd.RunE = a.runs(func(cmd *cobra.Command, args []string, out *output) error {
		cat, err := builtCatalog(dir, manifestFile, out)
		if err != nil {
			return err
		}
		file, data, err := readInput(cmd.InOrStdin(), args[0])
		if err != nil {
			return out.fail(exitFailed, "%v", err)
		}
		call, err := cat.DecodeIn(target, namespace, name, data)
		var ae *toolcall.ArgumentsError
		switch {
		case errors.As(err, &ae):
			out.diagnostics(ae.Diagnostics(file, data), true)
			return out.fail(exitFailed, "the arguments of %s are not valid against its schema", ae.ID)
		case errors.Is(err, toolcall.ErrUnknownTarget):
			return out.fail(exitUsage, "%v", err)
		case err != nil:
			return out.fail(exitFailed, "%v", err)
		}
		for _, p := range call.Unchecked { // neither refused nor shown valid
			out.diagnostics([]diag.Diagnostic{diag.New("call.unchecked-pattern", "%s", p.Message).At(file, string(p.Pointer)).About(call.ID)}, true)
		}
		return printCall(a.stdout, call, out)
	})
	fl := cmd.Flags()
	fl.StringVarP(&dir, "directory", "C", "", "change to `DIR` before doing anything")
	fl.StringVar(&manifestFile, "manifest", pipeline.DefaultManifest, "the manifest `FILE`; toolc.lock and the bundles are beside it")
	fl.StringVar(&target, "target", "", "the `TARGET` the call was made for (a target's name in the manifest)")
	fl.StringVar(&name, "name", "", "the tool `NAME` as the model called it (the emitted name)")
	fl.StringVar(&namespace, "namespace", "", "the `NAMESPACE` the call names, where the target groups tools ([load] namespace; OpenAI Responses)")
	_ = cmd.MarkFlagRequired("target")
	_ = cmd.MarkFlagRequired("name")
	_ = cmd.MarkFlagDirname("directory")
	return cmd
}

// builtCatalog loads the built catalog beside the manifest (toolc.lock
// and the bundles it lists), for toolcall.
func builtCatalog(dir, manifestFile string, out *output) (*toolcall.Catalog, error) {
	m, err := openManifest(dir, manifestFile)
	if err != nil {
		return nil, out.fail(exitUsage, "%v", err)
	}
	defer m.root.Close() // Load reads every file it needs
	cat, err := toolcall.Load(m.root.FS(), manifest.LockFile)
	if err != nil {
		return nil, out.fail(exitFailed, "%v", err)
	}
	return cat, nil
}

// printCall prints the decoded call: its tool's ID, its arguments and the
// MCP headers it sends (Mcp-Param-*), as one JSON record for
// --error-format json or sarif.
func printCall(w io.Writer, call *toolcall.Call, out *output) error {
	decoded, err := canonical.ParseJSON(call.Arguments)
	if err != nil {
		return out.fail(exitFailed, "internal error: %v", err)
	}
	headers, _ := call.Headers() // Decode refused a call with a problem
	if out.machine() {
		rec := canonical.NewObject()
		rec.Set("id", canonical.NewString(call.ID))
		rec.Set("arguments", decoded)
		if call.Transformed() {
			src, err := canonical.ParseJSON(call.SourceArguments)
			if err != nil {
				return out.fail(exitFailed, "internal error: %v", err)
			}
			fwd := canonical.NewObject()
			fwd.Set("name", canonical.NewString(call.SourceName))
			fwd.Set("arguments", src)
			rec.Set("source", fwd)
		}
		if len(headers) > 0 {
			hs := canonical.NewObject()
			for _, h := range headers {
				hs.Set(h.Name, canonical.NewString(h.Value))
			}
			rec.Set("headers", hs)
		}
		fmt.Fprintf(w, "%s\n", rec.AppendJSON(nil, ""))
		return nil
	}
	fmt.Fprintf(w, "%s\n%s\n", call.ID, decoded.AppendJSON(nil, "  "))
	for _, h := range headers {
		fmt.Fprintf(w, "%s: %s\n", h.Name, h.Value)
	}
	if call.Transformed() {
		src, err := canonical.ParseJSON(call.SourceArguments)
		if err != nil {
			return out.fail(exitFailed, "internal error: %v", err)
		}
		fmt.Fprintf(w, "as the source takes it: %s\n%s\n", call.SourceName, src.AppendJSON(nil, "  "))
	}
	return nil
}
