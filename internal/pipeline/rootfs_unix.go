//go:build unix

package pipeline

import "syscall"

// nonblock opens a named pipe without waiting for a writer.
const nonblock = syscall.O_NONBLOCK
