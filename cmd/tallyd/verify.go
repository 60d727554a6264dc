package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/tally-dice/tally/receipt"
)

// verify runs `tallyd verify [--key HEX] FILE`: it checks a night receipt
// with nothing but the file (package receipt) and says what it found. It
// exits 0 for a receipt that verifies, 1 for one that does not, 2 for a
// usage error.
func verify(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("tallyd verify", flag.ContinueOnError)
	fs.SetOutput(stderr)
	key := fs.String("key", "", "the server's receipt key (hex) the receipt must be signed with; any key when empty")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: tallyd verify [--key HEX] FILE")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	file, err := os.ReadFile(fs.Arg(0))
	if err != nil {
		fmt.Fprintln(stderr, "tallyd verify:", err)
		return 2
	}
	v, err := receipt.Verify(file, *key)
	if err != nil {
		fmt.Fprintf(stdout, "NOT VERIFIED: %s: %v\n", fs.Arg(0), err)
		return 1
	}
	r := v.Receipt
	fmt.Fprintf(stdout, "verified: table %d %q (%s), %d events to head %d:%s, %d journal transactions, books balance\n",
		r.Table.ID, r.Table.Name, r.Table.Status, len(r.Events), r.Head.Seq, r.Head.Hash, len(r.Journal))
	fmt.Fprintf(stdout, "signed %s by key %s\n", r.IssuedAt.Format("2006-01-02 15:04:05 MST"), v.Key)
	if *key == "" {
		fmt.Fprintln(stdout, "THE KEY IS NOT CHECKED: anyone can sign a receipt with a key of their own. Compare it with your Tally's "+
			"(GET /v1/receipt-key, shown in the app's History) or pass --key")
	}
	return 0
}
