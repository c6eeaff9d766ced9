// Command grokbench compares, on the 10,000 lines of the bundled real
// access log, SplitText configured with the spec's hand-written regex and
// with grok expressions, in one goroutine (records per second per core).
//
//	go run ./tools/grokbench -rounds 30
//
// The variants run in turn, round after round, and each reports its best
// round: on a shared, loaded machine the best of many interleaved rounds is
// far steadier than one long run of each, since load hits every variant
// alike and the minimum is the run the load disturbed least. The garbage
// collector runs before each timed round.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/plugins/text"
	"github.com/weir-streams/weir/internal/record"
)

// handRegex and handFields are the spec's eleven-group enrichment regex
// (conf/index-apache-logs-enrich.yml).
const (
	handRegex  = `(\S+)\s+(\S+)\s+(\S+)\s+\[([\w:/]+\s[+\-]\d{4})\]\s+"(\S+)\s+(\S+)\s*(\S*)"\s+(\S+)\s+(\S+)\s+"([^"]*)"\s+"([^"]*)"?`
	handFields = "src_ip,identd,user,record_time,http_method,http_query,http_version,http_status,bytes_out,http_referer,http_user_agent"
	// grokMirror is handRegex written in grok.
	grokMirror = `%{NOTSPACE:src_ip}\s+%{NOTSPACE:identd}\s+%{NOTSPACE:user}\s+\[(?<record_time>[\w:/]+\s[+\-]\d{4})\]\s+"%{NOTSPACE:http_method}\s+%{NOTSPACE:http_query}\s*(?<http_version>\S*)"\s+%{NOTSPACE:http_status}\s+%{NOTSPACE:bytes_out}\s+"(?<http_referer>[^"]*)"\s+"(?<http_user_agent>[^"]*)"?`
)

type variant struct {
	name string
	conf map[string]string
	p    component.Processor
	best time.Duration
}

func main() {
	rounds := flag.Int("rounds", 30, "interleaved rounds over the 10,000 lines")
	logFile := flag.String("log", "testdata/access-logs/apache_combined_10k.log", "access log")
	lsDir := flag.String("logstash-patterns", "", "Logstash's patterns/legacy directory: adds %{COMBINEDAPACHELOG} from it (it needs the backtracking engine)")
	only := flag.String("only", "", "run only the variants whose name contains this")
	flag.Parse()
	lines, err := readLines(*logFile)
	if err != nil {
		fmt.Fprintln(os.Stderr, "grokbench:", err)
		os.Exit(1)
	}
	vs := []*variant{
		{name: "hand-written regex (spec, 11 groups)", conf: map[string]string{"value.regex": handRegex, "value.fields": handFields}},
		{name: "grok mirroring the regex", conf: map[string]string{"value.regex": grokMirror}},
		{name: "grok %{COMBINEDAPACHELOG}, mapping spec", conf: map[string]string{"value.regex": "%{COMBINEDAPACHELOG}", "grok.field.mapping": "spec"}},
		// A lookbehind puts the same expression on the backtracking
		// engine (regexp2): what an expression that needs it costs.
		{name: "backtracking (?<!\\S)%{COMBINEDAPACHELOG}", conf: map[string]string{"value.regex": `(?<!\S)%{COMBINEDAPACHELOG}`, "grok.field.mapping": "spec"}},
	}
	if *lsDir != "" {
		vs = append(vs, &variant{name: "Logstash legacy %{COMBINEDAPACHELOG}", conf: map[string]string{"value.regex": "%{COMBINEDAPACHELOG}",
			"grok.patterns.dir": *lsDir, "grok.ecs.compatibility": "disabled"}})
	}
	if *only != "" {
		kept := vs[:1] // the regex stays: the others are compared with it
		for _, v := range vs[1:] {
			if strings.Contains(v.name, *only) {
				kept = append(kept, v)
			}
		}
		vs = kept
	}
	for _, v := range vs {
		v.conf["record.type"] = "apache_log"
		spec := text.SplitTextSpec()
		conf, probs := component.NewConfig(&spec, v.conf)
		if err := probs.Err(); err != nil {
			fmt.Fprintln(os.Stderr, "grokbench:", err)
			os.Exit(1)
		}
		if v.p, err = spec.NewProcessor(conf, component.Env{Name: "parser"}); err != nil {
			fmt.Fprintln(os.Stderr, "grokbench:", err)
			os.Exit(1)
		}
	}
	for r := 0; r < *rounds; r++ {
		for _, v := range vs {
			if d := run(v.p, lines); r == 0 || d < v.best {
				v.best = d
			}
		}
	}
	base := vs[0].best
	fmt.Printf("%-44s %12s %14s %10s\n", "variant", "ns/line", "records/s", "vs regex")
	for _, v := range vs {
		ns := float64(v.best.Nanoseconds()) / float64(len(lines))
		fmt.Printf("%-44s %12.0f %14.0f %+9.1f%%\n", v.name, ns, 1e9/ns, 100*(float64(v.best)/float64(base)-1))
	}
}

// run parses every line once, in batches of 1,000 as a stream does, and
// returns the time taken.
func run(p component.Processor, lines []string) time.Duration {
	recs := make([]*record.Record, len(lines))
	for i, l := range lines {
		recs[i] = record.New(record.DeriveID("pipeline_raw", 0, int64(i), 0), "", 0)
		recs[i].SetString(record.FieldValue, l)
	}
	// Collect the garbage of the previous variant now, so that the pacer
	// does not charge it to this one, round after round.
	runtime.GC()
	start := time.Now()
	for i := 0; i < len(recs); i += 1000 {
		b := component.Batch{Records: recs[i:min(i+1000, len(recs))]}
		if err := p.Process(context.Background(), &b); err != nil {
			fmt.Fprintln(os.Stderr, "grokbench:", err)
			os.Exit(1)
		}
	}
	return time.Since(start)
}

func readLines(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open access log: %w", err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		lines = append(lines, strings.TrimSuffix(sc.Text(), "\r"))
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read access log: %w", err)
	}
	return lines, nil
}
