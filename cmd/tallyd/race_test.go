//go:build race

package main

// The tests run with -race build the tallyd they start with it too, so
// that requests spread over several processes are raced inside each.
func init() { raceBuild = []string{"-race"} }
