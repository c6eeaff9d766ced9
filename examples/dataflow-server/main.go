// Command dataflow-server is a small implementation of the dataflow REST API
// (docs/remote-api.md) to try Weir's live changes: it serves dataflows from
// JSON files in a directory and writes the snapshots Weir pushes to a file.
//
// Layout of the directory, for a dataflow named NAME (Weir's
// engine.app.name):
//
//	NAME/dataflow.json          {"services": [...], "streams": [{"name", "component", "config"}]}
//	NAME/pipelines/STREAM.json  {"processors": [...]}: the processor chain of stream STREAM
//
// The server sets the timestamps from the files: the dataflow's lastModified
// is the modification time of dataflow.json, each pipeline's that of its
// file. So editing a pipeline file swaps that stream's chain, and editing
// dataflow.json restarts the dataflow. Last-Modified is the latest of those
// times and the ETag a hash of the body; a request that echoes either gets
// 304. Each POSTed snapshot is appended, one JSON object a line, to the
// snapshots file.
package main

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on")
	dir := flag.String("dir", "dataflows", "directory of dataflows")
	snapshots := flag.String("snapshots", "snapshots.jsonl", "file the pushed snapshots are appended to")
	flag.Parse()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	// The address line is read by tests that listen on port 0.
	fmt.Printf("dataflow-server listening on http://%s (dataflows in %s, snapshots to %s)\n", ln.Addr(), *dir, *snapshots)
	s := &server{dir: *dir, snapshots: *snapshots}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /dataflows/{name}", s.get)
	mux.HandleFunc("POST /dataflows/{name}", s.post)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	log.Fatal(srv.Serve(ln))
}

type server struct {
	dir, snapshots string
	mu             sync.Mutex // serializes appends to the snapshots file
}

// logf prints one line per request with the time to the microsecond.
func logf(format string, args ...any) {
	fmt.Printf("%s %s\n", time.Now().UTC().Format(time.RFC3339Nano), fmt.Sprintf(format, args...))
}

func (s *server) get(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	body, modified, err := s.build(name)
	if errors.Is(err, os.ErrNotExist) {
		logf("GET %s 404", r.URL.Path)
		http.NotFound(w, r)
		return
	}
	if err != nil {
		logf("GET %s 500 %v", r.URL.Path, err)
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	etag := fmt.Sprintf(`"%x"`, sha256.Sum256(body))
	lastModified := modified.UTC().Format(http.TimeFormat)
	// If-None-Match takes precedence (RFC 9110, 13.2.2); Last-Modified has
	// whole seconds, the ETag catches two edits within one second.
	notModified := false
	if inm := r.Header.Get("If-None-Match"); inm != "" {
		notModified = inm == etag
	} else if ims, err := http.ParseTime(r.Header.Get("If-Modified-Since")); err == nil {
		notModified = !modified.Truncate(time.Second).After(ims)
	}
	w.Header().Set("Last-Modified", lastModified)
	w.Header().Set("ETag", etag)
	if notModified {
		logf("GET %s 304", r.URL.Path)
		w.WriteHeader(http.StatusNotModified)
		return
	}
	logf("GET %s 200 lastModified=%s", r.URL.Path, modified.UTC().Format(time.RFC3339Nano))
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(body)
}

// build assembles the DataFlow of name from its files and returns it with
// the latest modification time among them.
func (s *server) build(name string) ([]byte, time.Time, error) {
	if strings.ContainsAny(name, `/\`) || name == ".." || name == "." {
		return nil, time.Time{}, os.ErrNotExist
	}
	base := filepath.Join(s.dir, name)
	var df map[string]any
	modified, err := readJSON(filepath.Join(base, "dataflow.json"), &df)
	if err != nil {
		return nil, time.Time{}, err
	}
	latest := modified
	df["lastModified"] = modified.UTC().Format(time.RFC3339Nano)
	streams, _ := df["streams"].([]any)
	for _, st := range streams {
		stream, ok := st.(map[string]any)
		if !ok {
			return nil, time.Time{}, fmt.Errorf("dataflow.json: a stream is not an object")
		}
		sname, _ := stream["name"].(string)
		var pipeline map[string]any
		pm, err := readJSON(filepath.Join(base, "pipelines", sname+".json"), &pipeline)
		if errors.Is(err, os.ErrNotExist) {
			continue // no pipeline file: an empty chain
		}
		if err != nil {
			return nil, time.Time{}, err
		}
		pipeline["lastModified"] = pm.UTC().Format(time.RFC3339Nano)
		stream["pipeline"] = pipeline
		if pm.After(latest) {
			latest = pm
		}
	}
	body, err := json.MarshalIndent(df, "", "  ")
	return body, latest, err
}

func readJSON(path string, v any) (time.Time, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return time.Time{}, err
	}
	st, err := os.Stat(path)
	if err != nil {
		return time.Time{}, err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return time.Time{}, fmt.Errorf("%s: %w", path, err)
	}
	return st.ModTime(), nil
}

func (s *server) post(w http.ResponseWriter, r *http.Request) {
	b, err := io.ReadAll(io.LimitReader(r.Body, 16<<20))
	if err == nil && !json.Valid(b) {
		err = errors.New("body is not JSON")
	}
	if err != nil {
		logf("POST %s 400 %v", r.URL.Path, err)
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var snap struct {
		LastModified       string `json:"lastModified"`
		ModificationReason string `json:"modificationReason"`
	}
	_ = json.Unmarshal(b, &snap)
	line, _ := json.Marshal(map[string]any{"received": time.Now().UTC(), "dataflow": r.PathValue("name"), "jobId": r.URL.Query().Get("jobId"), "snapshot": json.RawMessage(b)})
	s.mu.Lock()
	f, err := os.OpenFile(s.snapshots, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err == nil {
		_, err = f.Write(append(line, '\n'))
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	s.mu.Unlock()
	if err != nil {
		logf("POST %s 500 %v", r.URL.Path, err)
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	logf("POST %s 200 snapshot lastModified=%s reason=%q", r.URL.Path, snap.LastModified, snap.ModificationReason)
	w.WriteHeader(http.StatusOK)
}
