package main

import (
	"errors"
	"strings"

	"github.com/spf13/cobra"

	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/pipeline"
	"github.com/toolc-dev/toolc/internal/suggest"
)

func newConvert(a *app) *cobra.Command {
	var opts pipeline.ConvertOptions
	cmd := command("convert --to FORMAT [--from FORMAT] [--strict] [--schema MODE] [--repair] [--ignore CODES] FILE|-", "Convert one file of tools to another format, on stdout")
	cmd.Args = cobra.ExactArgs(1)
	cmd.RunE = a.runs(func(cmd *cobra.Command, args []string, out *output) error {
		for _, c := range opts.Ignore {
			if !diag.Known(c) {
				return out.fail(exitUsage, "--ignore %s: unknown code or category%s (toolc rules lists them)", c, suggest.Hint(c, diag.Names()))
			}
		}
		name, data, err := pipeline.ReadArg(cmd.InOrStdin(), args[0])
		if err != nil {
			return out.fail(exitFailed, "%v", err)
		}
		res, err := pipeline.Convert(cmd.Context(), name, data, opts)
		if errors.Is(err, pipeline.ErrUnknownFormat) || errors.Is(err, pipeline.ErrNotSupported) {
			return out.fail(exitUsage, "%v", err)
		}
		var ce *pipeline.ConfigError
		if errors.As(err, &ce) { // an option the target does not take, say
			out.diagnostics(ce.Diagnostics, true)
			return out.fail(exitUsage, "cannot convert %s to %s with these options", name, opts.To)
		} else if err != nil {
			return out.fail(exitFailed, "%v", err)
		}
		// A digest, as build prints: one line per warning code,
		// errors in full; --verbose shows each.
		out.digestOf(res.Diagnostics, true, true)
		if res.Failed {
			return out.fail(exitFailed, "cannot convert %s to %s", name, opts.To)
		}
		_, err = res.Outputs[0].WriteTo(a.stdout)
		return err
	})
	fl := cmd.Flags()
	fl.StringVar(&opts.To, "to", "", "the `FORMAT` to write (a target format)")
	fl.StringVar(&opts.From, "from", "auto", "the `FORMAT` of the file; auto detects it")
	fl.BoolVar(&opts.Strict, "strict", false, "strict mode, for targets that take it ("+strings.Join(strictFormats, ", ")+")")
	fl.StringVar(&opts.Schema, "schema", "", "the target's schema `MODE` (gemini: json-schema or openapi)")
	fl.StringSliceVar(&opts.Ignore, "ignore", nil, "leave out these `CODES` or categories, as [policy] ignore does (comma-separated or repeated)")
	fl.BoolVar(&opts.Repair, "repair", false, "rewrite non-standard schemas (BFCL's dict, OpenAPI's nullable …) as JSON Schema, as repair = true does")
	_ = cmd.MarkFlagRequired("to")
	_ = cmd.RegisterFlagCompletionFunc("to", cobra.FixedCompletions(targetNames, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("from", cobra.FixedCompletions(append([]string{"auto"}, sources...), cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

// The formats convert writes and reads, and those with strict mode.
var targetNames, sources, strictFormats = pipeline.ConvertFormats()
