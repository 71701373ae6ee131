package main

import (
	"github.com/spf13/cobra"

	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/formats"
	"github.com/toolc-dev/toolc/internal/pipeline"
)

func newDetect(a *app) *cobra.Command {
	var verbose bool
	cmd := command("detect [--verbose] FILE...", "Say which tool format each file is in, and how sure toolc is")
	cmd.Args = cobra.MinimumNArgs(1)
	cmd.RunE = a.runs(func(cmd *cobra.Command, files []string, out *output) error {
		reg := formats.Default()
		var ds []diag.Diagnostic
		for _, file := range files {
			ds = append(ds, pipeline.DetectFile(a.stdout, reg, file, verbose)...)
		}
		out.diagnostics(ds, true)
		if diag.HasErrors(ds) {
			return &exitError{exitFailed}
		}
		return nil
	})
	cmd.Flags().BoolVarP(&verbose, "verbose", "v", false, "print every format's score and what the file decodes to")
	return cmd
}
