package pipeline

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// RootFS is root's folder as toolc reads it: root.FS(), but for Open,
// which never waits and hands out only a regular file or a folder, and
// for the error of a link out of the folder, which names the link. The
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
		return nil, r.leaves("open", name, err)
	}
	if err := opened(f, name, true); err != nil {
		return nil, err
	}
	return f, nil
}

func (r rootFS) Stat(name string) (fs.FileInfo, error) {
	info, err := r.rootFSys.Stat(name)
	return info, r.leaves("stat", name, err)
}

// leaves says an error of name's as the link that leads out of the folder
// on its way, where one does (wrapping errLeaves), instead of os.Root's
// "path escapes from parent": a sandbox (Bazel's) links each input, the
// manifest too, from outside. It looks only once the file system failed.
func (r rootFS) leaves(op, name string, err error) error {
	if err == nil || errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if _, lerr := resolveLinks(r, name); errors.Is(lerr, errLeaves) {
		return &fs.PathError{Op: op, Path: name, Err: lerr}
	}
	return err
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
