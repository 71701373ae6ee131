package toolcall

import (
	"context"
	"io/fs"

	"github.com/toolc-dev/toolc/compiler"
)

// buildText reads the manifest toolc.toml in fsys, as the command does,
// and builds it.
func buildText(ctx context.Context, fsys fs.FS, opts compiler.Options) (*compiler.Result, error) {
	m, err := compiler.ReadManifest(fsys, compiler.DefaultManifest)
	if err != nil {
		return nil, err
	}
	return compiler.Build(ctx, fsys, m, opts)
}
