package main

import (
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/explain"
)

func newRules(a *app) *cobra.Command {
	cmd := command("rules [CATEGORY...]", "List every diagnostic code: its default severity and what it means")
	cmd.ValidArgsFunction = func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return diag.Categories(), cobra.ShellCompDirectiveNoFileComp
	}
	cmd.RunE = a.runs(func(_ *cobra.Command, cats []string, out *output) error {
		for _, c := range cats {
			if !diag.IsCategory(c) {
				return out.fail(exitUsage, "unknown category %q (want one of %s)", c, strings.Join(diag.Categories(), ", "))
			}
		}
		tw := tabwriter.NewWriter(a.stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "CODE\tSEVERITY\tSUMMARY")
		for _, c := range diag.Codes() {
			if len(cats) == 0 || slices.Contains(cats, c.Category()) {
				fmt.Fprintf(tw, "%s\t%s\t%s\n", c.Code, c.Severity, c.Summary)
			}
		}
		return tw.Flush()
	})
	return cmd
}

func newExplain(a *app) *cobra.Command {
	cmd := command("explain CODE|FORMAT", "Say what a diagnostic code means, with an example and how to fix or silence it; or what a target format's options are")
	cmd.Args = cobra.ExactArgs(1)
	cmd.ValidArgsFunction = func(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return explain.Completions(), cobra.ShellCompDirectiveNoFileComp
	}
	cmd.RunE = a.runs(func(cmd *cobra.Command, args []string, out *output) error {
		write, err := explain.For(args[0])
		if err != nil {
			return out.fail(exitUsage, "%v", err)
		}
		return write(cmd.Context(), a.stdout)
	})
	return cmd
}
