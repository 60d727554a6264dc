// Package browsertest drives the phone web app (package web) in a real
// headless Chromium against the real API on a fresh database: two phones at
// 390x844 play a round, watch each other's rolls arrive live, see the
// engine refuse a bad entry, and settle up; two phones tapping the same
// throw at once record it once; the host's phone takes buy-ins,
// seats a latecomer, takes players off, closes the table and pays out; a
// round of six is played; a standard and an advanced game of Battleship
// Royale are played to the end on three phones; a phone with no network
// keeps its throws and sends them once each when it is back, recovers by
// itself after a server outage, explains a waiting throw the server
// refused, drops one another phone recorded first with the news, opens the
// app from its service worker and updates it by itself.
// Each screen is saved as a PNG under artifacts/screenshots/ at the
// repository root, scrolled to the top, once axe-core has checked it
// (axe_test.go): any violation of its rules, colour contrast among them,
// fails the test. axe-core is test data (testdata/axe, its version and
// licence in its README), injected through the DevTools protocol.
//
// Battleship Royale is aimed and fired at the board's far corner on a
// 390-px phone, where the board scrolls sideways, without scrolling back;
// a stand made offline ends the turn on that phone while it waits.
//
// Chromium is found through $CHROMIUM or as chromium, chromium-browser or
// google-chrome on the PATH. Without it the tests fail (they are never
// skipped) and say how to install it; `make test` installs it when run as
// root.
package browsertest
