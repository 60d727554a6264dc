package api

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// heldBack sends the head of a request and the first bytes of its body on
// a connection of its own, holds the rest of the body back, and reads the
// answer, checked against the contract as client.do checks one. A server
// that waits for the rest before it answers makes the read give up after
// ten seconds, far longer than an answer given at once takes.
func (c *client) heldBack(t *testing.T, r req, head http.Header, first []byte) resp {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(c.base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var out bytes.Buffer
	fmt.Fprintf(&out, "%s %s HTTP/1.1\r\nHost: tally.test\r\n", r.method, r.path)
	if r.token != "" {
		head.Set("Authorization", "Bearer "+r.token)
	}
	if err := head.Write(&out); err != nil {
		t.Fatal(err)
	}
	out.WriteString("\r\n")
	out.Write(first)
	if _, err := conn.Write(out.Bytes()); err != nil {
		t.Fatal(err)
	}
	if err := conn.SetReadDeadline(time.Now().Add(10 * time.Second)); err != nil {
		t.Fatal(err)
	}
	hres, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("%s %s with the body held back: no answer: %v", r.method, r.path, err)
	}
	defer hres.Body.Close()
	body, err := io.ReadAll(hres.Body)
	if err != nil {
		t.Fatalf("%s %s with the body held back: %v", r.method, r.path, err)
	}
	answer := resp{status: hres.StatusCode, header: hres.Header, body: body}
	hr, err := http.NewRequest(r.method, c.base+r.path, nil)
	if err != nil {
		t.Fatal(err)
	}
	c.checkAnswer(t, r, hr, answer)
	return answer
}

// postRoutes are the paths of every POST of openapi.yaml, with the
// scene's table (as the table and as the crew), its first round, Ann and
// its join code for the path's parameters.
func postRoutes(t *testing.T, s *scene) []string {
	t.Helper()
	doc, _ := loadSpec(t)
	params := strings.NewReplacer("{tableId}", strconv.FormatInt(s.tb.ID, 10), "{crewId}", strconv.FormatInt(s.tb.ID, 10),
		"{number}", "1", "{playerId}", strconv.FormatInt(s.id("Ann"), 10), "{code}", s.tb.Code)
	var paths []string
	for path, item := range doc.Paths.Map() {
		if item.Post != nil {
			paths = append(paths, params.Replace(path))
		}
	}
	sort.Strings(paths)
	if len(paths) < 20 {
		t.Fatalf("openapi.yaml lists %d POST routes, fewer than Tally has", len(paths))
	}
	return paths
}

// TestADeclaredOversizedBodyIsRefusedAtOnce: a request whose
// Content-Length is over the limit is refused with a 413 that names the
// size and the limit from its head alone, on every route that takes a
// body, before its token is looked at, while the client still holds back
// nearly all of the body it declared; nothing at the table changes.
func TestADeclaredOversizedBodyIsRefusedAtOnce(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"preset": "bar", "players": []string{"Ann", "Bob"}})
	s.start(nil)
	before := s.snapshot()
	declared := strconv.Itoa(100000)
	for _, path := range postRoutes(t, s) {
		for _, token := range []string{s.tb.Host, "tly_h_forged"} {
			r := req{method: http.MethodPost, path: path, token: token}
			head := http.Header{"Content-Type": {"application/json"}, "Content-Length": {declared}, "Idempotency-Key": {randomKey()}}
			out := s.c.heldBack(t, r, head, []byte(`{"player":`))
			if out.status != http.StatusRequestEntityTooLarge {
				t.Fatalf("POST %s declaring %s bytes: %d %s, want 413", path, declared, out.status, out.body)
			}
			p := out.problem(t)
			if p.Type != "/problems/payload-too-large" || !strings.Contains(p.Detail, declared) || !strings.Contains(p.Detail, strconv.Itoa(maxBody)) {
				t.Fatalf("POST %s declaring %s bytes: %+v, want payload-too-large naming the size and the limit", path, declared, p)
			}
		}
	}
	s.unchanged(before, "the bodies declared too large")
}

// TestAnOversizedChunkedBodyIsRefusedAtOnce: a body sent in chunks, with
// no length declared, is cut at the limit as it is read: the 413 comes
// once the limit is passed, not when the client has sent the rest, and
// nothing at the table changes.
func TestAnOversizedChunkedBodyIsRefusedAtOnce(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"preset": "bar", "players": []string{"Ann", "Bob"}})
	before := s.snapshot()
	chunk := `{"player":1,"amount":5,"memo":"` + strings.Repeat("x", maxBody) + `"}`
	first := []byte(fmt.Sprintf("%x\r\n%s\r\n", len(chunk), chunk)) // and no last chunk
	r := req{method: http.MethodPost, path: s.tb.path("/deposits"), token: s.tb.Host}
	head := http.Header{"Content-Type": {"application/json"}, "Transfer-Encoding": {"chunked"}, "Idempotency-Key": {"big"}}
	out := s.c.heldBack(t, r, head, first)
	if p := out.problem(t); out.status != http.StatusRequestEntityTooLarge || p.Type != "/problems/payload-too-large" ||
		!strings.Contains(p.Detail, strconv.Itoa(maxBody)) {
		t.Fatalf("a chunked body over the limit: %d %s, want 413 payload-too-large naming the limit", out.status, out.body)
	}
	s.unchanged(before, "the chunked body over the limit")
}
