//go:build !unix

package pipeline

// nonblock is nothing where the file system has no named pipes to wait on.
const nonblock = 0
