package web

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sort"
)

// workerPath is the service worker's URL. It lives with the other assets
// but is allowed the whole site as its scope (Service-Worker-Allowed), since
// the page it serves is /.
const workerPath = "/app/sw.js"

// The lines of sw.js the server fills in; sw.js as written runs as an
// unversioned worker that caches only the page.
var (
	versionLine = []byte("const VERSION = 'unversioned';")
	shellLine   = []byte("const SHELL = ['/'];")
)

// versionWorker writes the app's version and the URLs of its shell into the
// service worker. The version is a hash of every other file of the app, so
// any change to any of them is a new worker, which phones install on their
// next visit, replacing the cached shell as a whole. It panics if sw.js lacks
// the lines to fill in, a build defect.
func versionWorker(assets map[string]asset) {
	w, ok := assets[workerPath]
	if !ok {
		return
	}
	urls := make([]string, 0, len(assets))
	for url := range assets {
		if url != workerPath {
			urls = append(urls, url)
		}
	}
	sort.Strings(urls)
	sum := sha256.New()
	for _, url := range urls {
		sum.Write([]byte(url))
		sum.Write([]byte{0})
		sum.Write([]byte(assets[url].etag))
	}
	version := hex.EncodeToString(sum.Sum(nil)[:8])
	shell, _ := json.Marshal(urls)
	if !bytes.Contains(w.body, versionLine) || !bytes.Contains(w.body, shellLine) {
		panic("web: sw.js lacks the VERSION and SHELL lines the server fills in")
	}
	body := bytes.Replace(w.body, versionLine, []byte("const VERSION = '"+version+"';"), 1)
	body = bytes.Replace(body, shellLine, []byte("const SHELL = "+string(shell)+";"), 1)
	assets[workerPath] = newAsset(body, w.contentType)
}
