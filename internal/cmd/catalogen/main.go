// Command catalogen writes a generated catalog of N tools from the shared
// corpus into a folder, for timing toolc on large catalogs from outside
// (see internal/catalogen, and README's "Speed"):
//
//	go run ./internal/cmd/catalogen -n 20000 -distinct -o /tmp/cat20k
//	go run ./cmd/toolc build -C /tmp/cat20k
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/toolc-dev/toolc/internal/catalogen"
	"github.com/toolc-dev/toolc/internal/corpus"
)

func main() {
	n := flag.Int("n", 20000, "how many tools")
	distinct := flag.Bool("distinct", false, "make every schema's content distinct")
	out := flag.String("o", "", "the folder to write the catalog into")
	flag.Parse()
	if *out == "" || *n < 1 {
		fmt.Fprintln(os.Stderr, "usage: catalogen -n N [-distinct] -o DIR")
		os.Exit(2)
	}
	dir, err := corpus.Find()
	if err != nil {
		fmt.Fprintf(os.Stderr, "catalogen: the shared corpus: %v (set TOOLC_CORPUS)\n", err)
		os.Exit(1)
	}
	seeds, err := catalogen.Seeds(dir)
	if err == nil {
		err = catalogen.Write(*out, catalogen.Generate(seeds, catalogen.Options{Tools: *n, Distinct: *distinct}))
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "catalogen: %v\n", err)
		os.Exit(1)
	}
}
