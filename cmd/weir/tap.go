package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

const tapHelp = `Usage: weir tap [--url URL] [--stream NAME] [--errors] [--n N]

Prints samples of the records a running job writes, one JSON object per line, oldest first:
output records, or error records with --errors, of every stream or of --stream NAME, at most
N (default 20). The job must keep them: engine.ui.tap: true in its job file (off by default,
as engine.ui.profiling); it samples one record of each kind in 8 chunks, keeps the latest 64
per stream and kind, and redacts fields named like password, token, secret or cookie. The
samples are read from its status server, which serves them to 127.0.0.1 only.

  --url URL      the job's status server (default http://127.0.0.1:4050, engine.ui.port)
`

// tapCmd is `weir tap`: GET /api/tap of a running job's status server.
func tapCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("weir tap", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {}
	base := fs.String("url", "http://127.0.0.1:4050", "status server of the job")
	stream := fs.String("stream", "", "only this stream's records")
	errs := fs.Bool("errors", false, "error records instead of output records")
	n := fs.Int("n", 20, "most records printed")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, tapHelp)
			return 0
		}
		fmt.Fprintln(stderr, "see weir help tap")
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "weir tap: unexpected argument %q (see weir help tap)\n", fs.Arg(0))
		return 2
	}
	if *n < 1 {
		fmt.Fprintln(stderr, "weir tap: --n must be at least 1")
		return 2
	}
	q := url.Values{"n": {strconv.Itoa(*n)}}
	if *stream != "" {
		q.Set("stream", *stream)
	}
	if *errs {
		q.Set("errors", "true")
	}
	cl := &http.Client{Timeout: 10 * time.Second}
	resp, err := cl.Get(strings.TrimSuffix(*base, "/") + "/api/tap?" + q.Encode())
	if err != nil {
		fmt.Fprintln(stderr, "weir tap:", err)
		return 1
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		fmt.Fprintln(stderr, "weir tap:", err)
		return 1
	}
	switch {
	case resp.StatusCode == http.StatusNotFound:
		fmt.Fprintf(stderr, "weir tap: %s serves no samples: set engine.ui.tap: true in the job's engine configuration\n", *base)
		return 1
	case resp.StatusCode != http.StatusOK:
		fmt.Fprintf(stderr, "weir tap: %s: %s: %s\n", *base, resp.Status, strings.TrimSpace(string(body)))
		return 1
	}
	var got struct {
		Records []json.RawMessage `json:"records"`
	}
	if err := json.Unmarshal(body, &got); err != nil {
		fmt.Fprintln(stderr, "weir tap: the answer is not the tap's:", err)
		return 1
	}
	for _, r := range got.Records {
		fmt.Fprintf(stdout, "%s\n", r)
	}
	if len(got.Records) == 0 {
		fmt.Fprintln(stderr, "weir tap: no sample yet")
	}
	return 0
}
