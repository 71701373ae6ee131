module github.com/toolc-dev/toolc

go 1.26.8

require (
	github.com/gowebpki/jcs v1.0.2
	golang.org/x/text v0.43.0
)
