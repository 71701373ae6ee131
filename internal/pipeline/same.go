package pipeline

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
)

// castagnoli is the CRC a sameWriter keeps of what matched: computed in
// hardware (SSE 4.2), 7.8 GB/s against sha256's 1.8 on the 2-core machine.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// sameWriter compares what is written to it with a file on disk as it is
// written: the output is encoded once and the file is read, not hashed
// (hashing the old files of a build's bundles was 7 % of its CPU). From
// the first piece that differs it passes everything to the writer that
// differ returns, which has been given what matched before (the old file's
// first bytes, which it copies from the disk and checks against the CRC):
// a changed output is encoded once too.
type sameWriter struct {
	old     *bufio.Reader
	buf     []byte
	matched int64  // the bytes found equal so far
	crc     uint32 // their CRC
	differs bool
	differ  func(matched int64, crc uint32) (io.Writer, error)
	out     io.Writer // differ's
	err     error     // split's, which every later write returns
}

func newSameWriter(old io.Reader, size int64, differ func(int64, uint32) (io.Writer, error)) *sameWriter {
	n := sameBuffer(size)
	return &sameWriter{old: bufio.NewReaderSize(old, n), buf: make([]byte, n), differ: differ}
}

// sameBuffer is the size of a sameWriter's buffers for a file of size
// bytes: 64 KB, or, for a smaller file, its size and one byte more (a
// read past its end tells a longer output). A skills folder of 20,000
// tools is as many files of a few kilobytes: 128 KB of buffers each were
// 2.6 GB of garbage.
func sameBuffer(size int64) int {
	return int(min(size+1, 64<<10))
}

func (s *sameWriter) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	if s.differs {
		return s.out.Write(p)
	}
	for off := 0; off < len(p); {
		k := min(len(p)-off, len(s.buf))
		if m, _ := io.ReadFull(s.old, s.buf[:k]); m < k || !bytes.Equal(s.buf[:k], p[off:off+k]) {
			if err := s.split(); err != nil {
				return off, err
			}
			n, err := s.out.Write(p[off:])
			return off + n, err
		}
		s.crc = crc32.Update(s.crc, castagnoli, p[off:off+k])
		s.matched += int64(k)
		off += k
	}
	return len(p), nil
}

// split turns s to passing what it is written to differ's writer.
func (s *sameWriter) split() error {
	s.differs = true
	s.out, s.err = s.differ(s.matched, s.crc)
	return s.err
}

// Close ends the comparison: what was written differs also when the file
// on disk goes on past it (then differ is given all of it). It reports
// whether what was written is the file.
func (s *sameWriter) Close() (same bool, err error) {
	if s.differs {
		return false, nil
	}
	if _, err := s.old.ReadByte(); errors.Is(err, io.EOF) {
		return true, nil
	}
	return false, s.split()
}

// errMoved is the error of a file on disk that changed while it was
// compared: what matched cannot be copied from it.
var errMoved = errors.New("changed while it was read")

// copyPrefix copies the first n bytes of the file name in fsys to w, and
// fails with errMoved unless they have the CRC crc: what a sameWriter
// found equal before the first difference, read again.
func copyPrefix(fsys fs.FS, name string, n int64, crc uint32, w io.Writer) error {
	if n == 0 {
		return nil
	}
	f, err := fsys.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	h := crc32.New(castagnoli)
	switch copied, err := io.CopyN(io.MultiWriter(w, h), f, n); {
	case errors.Is(err, io.EOF) || err == nil && (copied != n || h.Sum32() != crc):
		return fmt.Errorf("%s %w", name, errMoved)
	case err != nil:
		return err
	}
	return nil
}
