// Command diceeval measures the app's dice reader on the test throws that
// vision/dicetest draws (a ray tracer that shares nothing with the
// training scenes). It runs the very JavaScript the app runs: it serves
// the embedded app (package web) beside the test frames, and headless
// Chromium imports app/dicereader.js, draws each frame through grab as
// the camera's frames are drawn, and reads it with the throw's count.
//
// Accuracy is taken at full speed; timing on a phone-class CPU, with
// Chromium's CPU throttled 4x (Emulation.setCPUThrottlingRate). It prints
// the figures as Markdown for BENCHMARKS.md and writes them, with every
// misread throw, to -out.
//
//	go run ./vision/diceeval -set vision/build/testset -out artifacts/dice-eval.md
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/tally-dice/tally/api/web"
)

// truth is truth.json: the throws and what is in each.
type truth struct {
	Generator string  `json:"generator"`
	Throws    []throw `json:"throws"`
}

type throw struct {
	File   string  `json:"file"`
	Kind   string  `json:"kind"` // read, count, edge or blur
	Expect int     `json:"expect"`
	Dice   []die   `json:"dice"`
	Table  string  `json:"table"`
	Blur   float64 `json:"blur"`
	Motion int     `json:"motion"`
	// Up is the table's up direction in the camera's coordinates, as the
	// phone's motion sensor gives it to the reader (dicetest/render.py).
	Up []float64 `json:"up"`
}

type die struct {
	X, Y, Size float64
	Face       int
	Style      string
}

// reading is what the page's evalOne returns.
type reading struct {
	OK     bool    `json:"ok"`
	Faces  []int   `json:"faces"`
	Reason string  `json:"reason"`
	MS     float64 `json:"ms"`
	// Part is the faces the camera would put in the tray: every face of a
	// throw read whole, or those it is sure of when it can name only some.
	Part []int `json:"part"`
	Dice []struct {
		X, Y   float64
		Face   int
		Sure   float64
		Filled bool // among Part
	} `json:"dice"`
}

// page is the test page: it imports the app's reader and reads one frame
// per call, timing grab and read together, as the camera's loop runs them.
const page = `<!doctype html><meta charset="utf-8"><title>dice eval</title><script type="module" src="run.js"></script>`

const runJS = `import { loadModel, grab, read } from '/app/dicereader.js';
const model = loadModel('/app/dice.bin');
const canvas = document.createElement('canvas');
window.evalOne = async (file, expect, up) => {
  const m = await model;
  const img = new Image();
  img.src = '/eval/set/' + file;
  await img.decode();
  const t0 = performance.now();
  const frame = grab(img, img.naturalWidth, img.naturalHeight, canvas);
  const r = read(m, frame, expect, up);
  const ms = performance.now() - t0;
  return { ok: r.ok, faces: r.faces, reason: r.reason, part: r.part, ms,
    dice: r.dice.map((d) => ({ x: d.x, y: d.y, face: d.face, sure: d.sure, filled: r.part.length > 0 && d.named })) };
};
window.evalReady = true;`

func main() {
	set := flag.String("set", "vision/build/testset", "the folder of test throws (truth.json and the frames)")
	out := flag.String("out", "artifacts/dice-eval.md", "where to write the figures and the misreads")
	timed := flag.Int("timed", 60, "how many five-dice throws to time at 4x CPU throttling")
	flag.Parse()
	var tr truth
	b, err := os.ReadFile(filepath.Join(*set, "truth.json"))
	if err != nil {
		log.Fatal(err)
	}
	if err := json.Unmarshal(b, &tr); err != nil {
		log.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/", web.NewHandler(""))
	mux.Handle("/eval/set/", http.StripPrefix("/eval/set/", http.FileServer(http.Dir(*set))))
	mux.HandleFunc("/eval/", func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "run.js") {
			w.Header().Set("Content-Type", "text/javascript")
			fmt.Fprint(w, runJS)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, page)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	ctx, cancel := browser()
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/eval/")); err != nil {
		log.Fatalf("opening the eval page: %v", err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool]("window.evalReady === true")); err != nil {
		log.Fatalf("the eval page did not load the reader: %v", err)
	}
	results := make([]reading, len(tr.Throws))
	for i, t := range tr.Throws {
		results[i] = readOne(ctx, t)
	}
	// Timing: five-dice throws the reader reads, at 4x throttling.
	var fast, slow []float64
	for i, t := range tr.Throws {
		if t.Kind == "read" && len(t.Dice) == 5 && len(slow) < *timed {
			fast = append(fast, results[i].MS)
			slow = append(slow, 0)
		}
	}
	loadBefore := loadAverage()
	if _, err := chromedp.Call(ctx, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: 4}); err != nil {
		log.Fatalf("throttling the CPU: %v", err)
	}
	n := 0
	for _, t := range tr.Throws {
		if t.Kind == "read" && len(t.Dice) == 5 && n < len(slow) {
			slow[n] = readOne(ctx, t).MS
			n++
		}
	}
	report := summarize(tr, results, fast, slow)
	// The times are wall-clock: on a shared machine they grow with its
	// load, which the report therefore gives.
	report += fmt.Sprintf("\nLoad average (1 minute) on this %d-core machine: %s before the 4x runs, %s after.\n",
		runtime.NumCPU(), loadBefore, loadAverage())
	fmt.Print(report)
	if err := os.MkdirAll(filepath.Dir(*out), 0o755); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, []byte(report+misreads(tr, results)), 0o644); err != nil {
		log.Fatal(err)
	}
}

// loadAverage is the machine's one-minute load average, or "?".
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) > 0 {
		return f[0]
	}
	return "?"
}

// browser starts headless Chromium as the browser tests do.
func browser() (context.Context, context.CancelFunc) {
	path := os.Getenv("CHROMIUM")
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if path != "" {
			break
		}
		path, _ = exec.LookPath(name)
	}
	if path == "" {
		log.Fatal("diceeval needs Chromium: apt-get install chromium, or set CHROMIUM")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-dev-shm-usage", true))
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(alloc)
	return ctx, func() { cancel(); cancelAlloc() }
}

func readOne(ctx context.Context, t throw) reading {
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	r, err := chromedp.Run(ctx, chromedp.Evaluate[reading](fmt.Sprintf("evalOne(%q, %d, %s)", t.File, t.Expect, upJS(t.Up)), chromedp.EvalAwaitPromise))
	if err != nil {
		log.Fatalf("%s: %v", t.File, err)
	}
	return r
}

// right says whether a reading is the throw's faces, and how many of its
// dice are right (pairs).
func right(t throw, r reading) (diceRight int, whole bool) {
	for j, i := range pairs(t, r) {
		if i >= 0 && r.Dice[j].Face == t.Dice[i].Face {
			diceRight++
		}
	}
	want := make([]int, 0, len(t.Dice))
	for _, d := range t.Dice {
		want = append(want, d.Face)
	}
	got := slices.Clone(r.Faces)
	slices.Sort(want)
	slices.Sort(got)
	return diceRight, slices.Equal(want, got) && diceRight == len(t.Dice)
}

// pairs gives each die read the true die it is, or -1: each true die, in
// turn, takes the read die nearest it within half a die not yet taken.
func pairs(t throw, r reading) []int {
	of := make([]int, len(r.Dice))
	for j := range of {
		of[j] = -1
	}
	for i, d := range t.Dice {
		best, bd := -1, 0.5*d.Size
		for j, g := range r.Dice {
			if dist := math.Hypot(g.X-d.X, g.Y-d.Y); of[j] < 0 && dist < bd {
				best, bd = j, dist
			}
		}
		if best >= 0 {
			of[best] = i
		}
	}
	return of
}

// upJS is a throw's up direction as the page's read takes it: the sensor's
// reading, or undefined (the phone held flat) for a set drawn without one.
func upJS(up []float64) string {
	if len(up) != 3 {
		return "undefined"
	}
	return fmt.Sprintf("[%g, %g, %g]", up[0], up[1], up[2])
}
