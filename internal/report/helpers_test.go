package report_test

import (
	"context"
	"io/fs"

	"github.com/toolc-dev/toolc/internal/pipeline"
)

// buildText reads the manifest toolc.toml in fsys, as the command does,
// and builds it.
func buildText(ctx context.Context, fsys fs.FS, opts pipeline.Options) (*pipeline.Result, error) {
	m, err := pipeline.ReadManifest(fsys, pipeline.DefaultManifest)
	if err != nil {
		return nil, err
	}
	return pipeline.Build(ctx, fsys, m, opts)
}
