package pipeline

import (
	"fmt"
	"io/fs"
	"os"
)

// RootFS is root's folder as toolc reads it: root.FS(), but for Open,
// which never waits and hands out only a regular file or a folder. The
// callers check that a file is regular before they open it (regular), and
// a file swapped for a named pipe between the two would still have made
// the open wait for a writer, forever: the file is opened without waiting
// (O_NONBLOCK, where the system has named pipes), checked as opened, and
// closed when it is neither. What a read through it sees is a regular
// file's bytes.
func RootFS(root *os.Root) fs.FS { return rootFS{root.FS().(rootFSys), root} }

// rootFSys is what root.FS() does besides Open, which rootFS keeps. Not
// fs.ReadFileFS: fs.ReadFile then reads through rootFS's Open.
type rootFSys interface {
	fs.StatFS
	fs.ReadDirFS
	fs.ReadLinkFS
}

type rootFS struct {
	rootFSys
	root *os.Root
}

func (r rootFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	f, err := r.root.OpenFile(name, os.O_RDONLY|nonblock, 0)
	if err != nil {
		return nil, err
	}
	return f, opened(f, name, true)
}

// opened checks that f, opened without waiting, is a regular file, or a
// folder where folder is true, and closes it when it is not.
func opened(f *os.File, name string, folder bool) error {
	info, err := f.Stat()
	if err == nil {
		if m := info.Mode(); m.IsRegular() || folder && m.IsDir() {
			return nil
		}
		err = fmt.Errorf("%s is %s: %w", name, what(info.Mode()), ErrNotRegular) // as statRegular says it
	}
	f.Close()
	return err
}
