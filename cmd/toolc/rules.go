package main

import (
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/explain"
	"github.com/toolc-dev/toolc/internal/suggest"
	"github.com/toolc-dev/toolc/internal/targets"
)

func newRules(a *app) *cobra.Command {
	cmd := command("rules [CATEGORY...]", "List every diagnostic code: its default severity and what it means")
	cmd.ValidArgsFunction = func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return diag.Categories(), cobra.ShellCompDirectiveNoFileComp
	}
	cmd.RunE = func(_ *cobra.Command, cats []string) error {
		for _, c := range cats {
			if !diag.IsCategory(c) {
				fmt.Fprintf(a.stderr, "toolc: unknown category %q (want one of %s)\n", c, strings.Join(diag.Categories(), ", "))
				return &exitError{exitUsage}
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
	}
	return cmd
}

func newExplain(a *app) *cobra.Command {
	cmd := command("explain CODE|FORMAT", "Say what a diagnostic code means, with an example and how to fix or silence it; or what a target format's options are")
	cmd.Args = cobra.ExactArgs(1)
	cmd.ValidArgsFunction = func(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		var names []string
		for _, c := range diag.Codes() {
			names = append(names, c.Code+"\t"+c.Summary)
		}
		for _, t := range targets.Default().List() {
			names = append(names, t.Name+"\ttarget format: "+t.Profile.Source)
		}
		return names, cobra.ShellCompDirectiveNoFileComp
	}
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if t, ok := targets.Default().Get(args[0]); ok {
			return explain.WriteFormat(a.stdout, t)
		}
		c, ok := diag.Lookup(args[0])
		if !ok && strings.Contains(args[0], ".") {
			fmt.Fprintf(a.stderr, "toolc: unknown code %q%s (toolc rules lists them all)\n", args[0], suggest.Hint(args[0], diag.Names()))
			return &exitError{exitUsage}
		}
		if !ok {
			var formats []string
			for _, t := range targets.Default().List() {
				formats = append(formats, t.Name)
			}
			fmt.Fprintf(a.stderr, "toolc: unknown target format %q%s (one of %s; toolc rules lists the codes)\n", args[0], suggest.Hint(args[0], formats), strings.Join(formats, ", "))
			return &exitError{exitUsage}
		}
		return explain.Write(cmd.Context(), a.stdout, c)
	}
	return cmd
}
