package main

import (
	"context"
	"io"

	"github.com/spf13/cobra"

	"github.com/toolc-dev/toolc/internal/eval"
	"github.com/toolc-dev/toolc/internal/pipeline"
)

func newEval(a *app) *cobra.Command {
	cmd := command("eval export|score", "Make an eval set from the catalog, and score a model's recorded calls against it")
	cmd.AddCommand(newEvalExport(a), newEvalScore(a))
	return cmd
}

func newEvalExport(a *app) *cobra.Command {
	var f placeFlags
	var outFile string
	cmd := &cobra.Command{Use: "export [-o FILE] [-C DIR] [--manifest FILE]", Short: "Write the catalog's eval set as JSON Lines", Long: help("eval")}
	cmd.Args = cobra.NoArgs
	cmd.RunE = a.withOutput(func(ctx context.Context, out *output) error {
		m, res, err := out.built(ctx, f.dir, f.manifest, pipeline.Options{CatalogOnly: true})
		if err != nil {
			return err
		}
		defer m.Close()
		if res.Failed {
			out.diagnostics(res.Diagnostics, false)
			return out.fail(exitFailed, "the catalog does not build; fix it before exporting its eval set")
		}
		cases := eval.Export(res.Catalog)
		write := func(w io.Writer) error { return eval.WriteJSONL(w, cases) }
		if outFile == "" || outFile == "-" {
			err = write(out.stdout)
		} else {
			err = pipeline.WriteFile(ctx, m.Path(outFile), write)
		}
		if err != nil {
			return out.fail(exitFailed, "%v", err)
		}
		out.status("%s", eval.Describe(cases, len(res.Catalog)))
		return nil
	})
	f.add(cmd)
	cmd.Flags().StringVarP(&outFile, "output", "o", "", "write to `FILE` instead of standard output")
	return cmd
}

func newEvalScore(a *app) *cobra.Command {
	var f placeFlags
	var casesFile, callsFile string
	var minScore float64
	cmd := &cobra.Command{Use: "score --cases FILE --calls FILE [--min F] [-C DIR] [--manifest FILE]", Short: "Score a model's recorded calls against an eval set", Long: help("eval")}
	cmd.Args = cobra.NoArgs
	cmd.RunE = a.runs(func(cmd *cobra.Command, _ []string, out *output) error {
		if minScore < 0 || minScore > 1 {
			return out.fail(exitUsage, "--min %g: a share of the cases, from 0 to 1", minScore)
		}
		cat, err := builtCatalog(f.dir, f.manifest, out)
		if err != nil {
			return err
		}
		outs, err := eval.ScoreFiles(cat, casesFile, callsFile)
		if err != nil {
			return out.fail(exitFailed, "%v", err)
		}
		total := eval.WriteScore(out.stdout, outs)
		share := float64(total.Passed) / float64(max(1, total.Cases))
		if share < minScore {
			return out.fail(exitFailed, "%d of %d cases passed (%s), under --min %g", total.Passed, total.Cases, eval.Percent(total.Passed, total.Cases), minScore)
		}
		out.status("%d of %d cases passed (%s)", total.Passed, total.Cases, eval.Percent(total.Passed, total.Cases))
		return nil
	})
	f.add(cmd)
	fl := cmd.Flags()
	fl.StringVar(&casesFile, "cases", "", "the eval set (`FILE`), as toolc eval export writes it")
	fl.StringVar(&callsFile, "calls", "", "the recorded calls (`FILE`): JSON Lines of {id, target, call: {name, arguments}}")
	fl.Float64Var(&minScore, "min", 0, "exit 1 when the share of cases passed is under `F` (0 to 1)")
	_ = cmd.MarkFlagRequired("cases")
	_ = cmd.MarkFlagRequired("calls")
	return cmd
}
