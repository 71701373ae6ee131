package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

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
		file, data, err := pipeline.ReadArg(cmd.InOrStdin(), args[0])
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
	m, err := pipeline.OpenWorkspace(dir, manifestFile)
	if err != nil {
		return nil, out.fail(exitUsage, "%v", err)
	}
	defer m.Close() // Load reads every file it needs
	cat, err := toolcall.Load(m.FS(), manifest.LockFile)
	if err != nil {
		return nil, out.fail(exitFailed, "%v", err)
	}
	return cat, nil
}

// printCall prints the decoded call (toolcall.Call.WriteText), or, for
// --error-format json or sarif, its JSON record.
func printCall(w io.Writer, call *toolcall.Call, out *output) error {
	if out.machine() {
		data, err := call.MarshalJSON()
		if err != nil {
			return out.fail(exitFailed, "internal error: %v", err)
		}
		_, err = fmt.Fprintf(w, "%s\n", data)
		return err
	}
	if err := call.WriteText(w); err != nil {
		return out.fail(exitFailed, "internal error: %v", err)
	}
	return nil
}
