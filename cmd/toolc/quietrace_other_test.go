//go:build !unix

package main

// quietRace does nothing where a process cannot be replaced: the command
// runs as it is, a second slower as it exits when built with -race.
func quietRace() {}
