package zinc

import (
	"bytes"
	"net/http"
	"testing"
	"time"
)

// TestServerKeepsDataAcrossKill indexes a document through /es/_bulk,
// kills the server, starts it again and finds the document by id.
func TestServerKeepsDataAcrossKill(t *testing.T) {
	s := New(t)
	body := "{\"index\":{\"_index\":\"harness\",\"_id\":\"doc-1\"}}\n{\"msg\":\"hello\",\"n\":3}\n"
	req, err := http.NewRequest(http.MethodPost, s.ESURL()+"/_bulk", bytes.NewBufferString(body))
	if err != nil {
		t.Fatal(err)
	}
	req.SetBasicAuth(User, Password)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("bulk: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("bulk: HTTP %d", resp.StatusCode)
	}
	waitDoc(t, s, "harness", "doc-1")
	if err := s.Settle(); err != nil {
		t.Fatal(err)
	}
	s.Kill()
	if _, _, err := s.Get("harness", "doc-1"); err == nil {
		t.Fatal("a killed server answered")
	}
	if err := s.Restart(); err != nil {
		t.Fatalf("restart: %v", err)
	}
	src := waitDoc(t, s, "harness", "doc-1")
	if src["msg"] != "hello" || src["n"] != float64(3) {
		t.Fatalf("document after restart = %v", src)
	}
	if n, err := s.Count("harness"); err != nil || n != 1 {
		t.Fatalf("count after restart = %d, %v; want 1", n, err)
	}
	ids, err := s.IDs("harness")
	if err != nil || len(ids) != 1 || ids["doc-1"] != 1 {
		t.Fatalf("ids after restart = %v, %v; want doc-1 once", ids, err)
	}
}

// waitDoc polls until the document is searchable: ZincSearch indexes from
// its write-ahead log in the background.
func waitDoc(t *testing.T, s *Server, index, id string) map[string]any {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		src, found, err := s.Get(index, id)
		if found {
			return src
		}
		if time.Now().After(deadline) {
			t.Fatalf("document %s/%s not found: %v", index, id, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
