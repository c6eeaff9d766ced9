// Command e2ebench measures Weir end to end: N real access-log lines in
// pipeline_raw, the job (by default the sample parsing job), all N records
// out: the run ends when the job's output topic and error topic together
// hold N records, so that lines the job does not parse count as done. It
// reports records per second, CPU seconds per million records and peak
// resident memory of the Weir process.
//
//	go run ./tools/e2ebench -n 1000000              # broker in this process: Weir's own CPU and memory
//	go run ./tools/e2ebench -n 1000000 -embedded    # Weir runs its embedded broker, as the quickstart does
//
// In the default mode the kfake broker runs in the benchmark process, so the
// figures of the Weir process are Weir's alone (its consumer, processors,
// producer and commits). With -embedded the broker runs inside Weir, and
// its CPU and memory (kfake keeps every topic in memory) count too.
package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/config"
	"github.com/weir-streams/weir/internal/stream"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "e2ebench:", err)
		os.Exit(1)
	}
}

func run() error {
	n := flag.Int("n", 1000000, "records to push through")
	embedded := flag.Bool("embedded", false, "let Weir run its embedded broker (its CPU and memory count)")
	conf := flag.String("conf", "conf/quickstart.yml", "job file; its stream reading pipeline_raw gives the output and error topics")
	outFlag := flag.String("out", "", "comma-separated output topics to count, instead of the job's")
	errFlag := flag.String("errors", "", "comma-separated error topics to count, instead of the job's")
	logPath := flag.String("log", "testdata/access-logs/apache_combined_10k.log", "lines to repeat")
	partitions := flag.Int("partitions", 4, "partitions of pipeline_raw")
	profile := flag.String("cpuprofile", "", "have Weir write a CPU profile here")
	uiPort := flag.Int("ui-port", -1, "status server port of Weir (for /debug/pprof/heap during the run); -1 = none")
	flag.Parse()

	lines, err := readLines(*logPath)
	if err != nil {
		return err
	}
	topics, err := jobTopics(*conf, inputTopic)
	if err != nil {
		return err
	}
	if *outFlag != "" {
		topics.out = component.SplitList(*outFlag)
	}
	if *errFlag != "" {
		topics.errs = component.SplitList(*errFlag)
	}
	if len(topics.out) == 0 {
		return errors.New("no output topic to count: give -out")
	}
	dir, err := os.MkdirTemp("", "e2ebench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, "weir")
	build := exec.Command("go", "build", "-o", bin, "./cmd/weir")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("build weir: %w", err)
	}

	var addr string
	env := []string{"WEIR_UI_PORT=" + strconv.Itoa(*uiPort)}
	args := []string{"run", "--conf", *conf, "--log-level", "warn"}
	if *profile != "" {
		args = append(args, "--cpuprofile", *profile)
	}
	if *embedded {
		port, err := freePort()
		if err != nil {
			return err
		}
		addr = fmt.Sprintf("127.0.0.1:%d", port)
		env = append(env, "BROKER_LIST=embedded")
		args = append(args, "--embedded-port", strconv.Itoa(port), "--data-dir", filepath.Join(dir, "kafka"))
	} else {
		c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.AllowAutoTopicCreation())
		if err != nil {
			return fmt.Errorf("start kfake: %w", err)
		}
		defer c.Close()
		addr = c.ListenAddrs()[0]
		env = append(env, "BROKER_LIST="+addr)
	}

	cl, err := kgo.NewClient(kgo.SeedBrokers(addr), kgo.ProducerLinger(5*time.Millisecond), kgo.MaxBufferedRecords(200000),
		// Uncompressed input, as Kafka's own producer writes by default.
		kgo.ProducerBatchCompression(kgo.NoCompression()))
	if err != nil {
		return err
	}
	defer cl.Close()
	ctx := context.Background()

	startWeir := func() (*exec.Cmd, error) {
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), env...)
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		return cmd, cmd.Start()
	}
	var weir *exec.Cmd
	// Whatever happens from here, the Weir process is stopped and waited
	// for: a benchmark leaves no process behind.
	defer func() {
		if weir != nil && weir.Process != nil {
			_ = weir.Process.Signal(syscall.SIGTERM)
			_ = weir.Wait()
		}
	}()
	if *embedded {
		// The broker lives in Weir: start it, then feed it.
		if weir, err = startWeir(); err != nil {
			return err
		}
		if err := waitBroker(ctx, cl); err != nil {
			return err
		}
	}
	adm := kadm.NewClient(cl)
	// With -embedded, Weir has created the topic already (autoCreate).
	resp, err := adm.CreateTopic(ctx, int32(*partitions), 1, nil, inputTopic)
	if err == nil {
		err = resp.Err
	}
	if err != nil && !errors.Is(err, kerr.TopicAlreadyExists) {
		return fmt.Errorf("create %s: %w", inputTopic, err)
	}
	fmt.Fprintf(os.Stderr, "producing %d lines...\n", *n)
	produceStart := time.Now()
	if err := produce(ctx, cl, lines, *n); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "produced in %v\n", time.Since(produceStart).Round(time.Millisecond))

	start := produceStart
	if !*embedded {
		// The input is all there before Weir starts: the run measures
		// consume, process, produce and commit only.
		start = time.Now()
		if weir, err = startWeir(); err != nil {
			return err
		}
	}
	for {
		got, err := topics.done(ctx, adm)
		if err == nil && got >= int64(*n) {
			break
		}
		if weir.ProcessState != nil {
			return errors.New("weir exited early")
		}
		time.Sleep(50 * time.Millisecond)
	}
	wall := time.Since(start)
	cpu, err := cpuSeconds(weir.Process.Pid)
	if err != nil {
		return err
	}
	peak, err := peakRSS(weir.Process.Pid)
	if err != nil {
		return err
	}
	mode := "broker in the benchmark process (Weir alone)"
	if *embedded {
		mode = "embedded broker inside Weir (broker counted)"
	}
	fmt.Printf("mode:                      %s\n", mode)
	fmt.Printf("records:                   %d\n", *n)
	fmt.Printf("wall time:                 %.2f s\n", wall.Seconds())
	fmt.Printf("records per second:        %.0f\n", float64(*n)/wall.Seconds())
	fmt.Printf("weir CPU:                  %.2f s\n", cpu)
	fmt.Printf("CPU seconds per million:   %.2f\n", cpu/float64(*n)*1e6)
	fmt.Printf("records per CPU-second:    %.0f\n", float64(*n)/cpu)
	fmt.Printf("weir peak RSS (VmHWM):     %.1f MB\n", float64(peak)/(1<<20))
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err == nil {
		self := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		fmt.Printf("benchmark process CPU:     %.2f s (producer and, without -embedded, the broker)\n", self.Seconds())
	}
	return nil
}

func produce(ctx context.Context, cl *kgo.Client, lines [][]byte, n int) error {
	errc := make(chan error, 1)
	for i := 0; i < n; i++ {
		cl.Produce(ctx, &kgo.Record{Topic: inputTopic, Key: []byte(strconv.Itoa(i)), Value: lines[i%len(lines)]}, func(_ *kgo.Record, err error) {
			if err != nil {
				select {
				case errc <- err:
				default:
				}
			}
		})
	}
	if err := cl.Flush(ctx); err != nil {
		return err
	}
	select {
	case err := <-errc:
		return fmt.Errorf("produce: %w", err)
	default:
		return nil
	}
}

// inputTopic is the topic the benchmark fills.
const inputTopic = "pipeline_raw"

// countedTopics are the topics whose records tell how far the job is: every
// record read ends in each output topic or, when the job fails it, in each
// error topic.
type countedTopics struct {
	out, errs []string
}

// jobTopics reads the output and error topics of the job file's stream that
// consumes input. Topics written "none" are no topics.
func jobTopics(path, input string) (countedTopics, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return countedTopics{}, fmt.Errorf("read job file: %w", err)
	}
	// The broker list and the status port are the benchmark's to set; the
	// job file's other variables are those of this process.
	getenv := func(k string) (string, bool) {
		switch k {
		case "BROKER_LIST":
			return "embedded", true
		case "WEIR_UI_PORT":
			return "-1", true
		}
		return os.LookupEnv(k)
	}
	job, err := config.Parse(data, time.Time{}, getenv)
	if err != nil {
		return countedTopics{}, fmt.Errorf("job file %s: %w", path, err)
	}
	var found []countedTopics
	for i := range job.DataFlow.Streams {
		c := &job.DataFlow.Streams[i].Component
		in, _ := c.Value(stream.KeyInputTopics)
		if !slices.Contains(component.SplitList(in), input) {
			continue
		}
		out, _ := c.Value(stream.KeyOutputTopics)
		errs, _ := c.Value(stream.KeyErrorTopics)
		found = append(found, countedTopics{out: withoutNone(component.SplitList(out)), errs: withoutNone(component.SplitList(errs))})
	}
	switch len(found) {
	case 0:
		return countedTopics{}, fmt.Errorf("job file %s: no stream reads %s", path, input)
	case 1:
		return found[0], nil
	default:
		return countedTopics{}, fmt.Errorf("job file %s: %d streams read %s; give -out and -errors", path, len(found), input)
	}
}

func withoutNone(topics []string) []string {
	return slices.DeleteFunc(topics, func(t string) bool { return t == stream.NoTopic })
}

// done returns how many input records the job has finished with.
func (t countedTopics) done(ctx context.Context, adm *kadm.Client) (int64, error) {
	offs, err := adm.ListEndOffsets(ctx, append(slices.Clone(t.out), t.errs...)...)
	if err != nil {
		return 0, err
	}
	counts := make(map[string]int64)
	offs.Each(func(o kadm.ListedOffset) {
		// A topic not created yet (an error topic no record has
		// failed to) holds nothing.
		if o.Err == nil {
			counts[o.Topic] += o.Offset
		}
	})
	return t.finished(counts), nil
}

// finished returns how many input records the job has finished with, given
// the records each topic holds: every output topic receives each parsed
// record and every error topic each failed one, so the least filled output
// topic and the least filled error topic together are the records done.
func (t countedTopics) finished(counts map[string]int64) int64 {
	least := func(topics []string) int64 {
		if len(topics) == 0 {
			return 0
		}
		m := counts[topics[0]]
		for _, tp := range topics[1:] {
			m = min(m, counts[tp])
		}
		return m
	}
	return least(t.out) + least(t.errs)
}

func waitBroker(ctx context.Context, cl *kgo.Client) error {
	deadline := time.Now().Add(30 * time.Second)
	for {
		if err := cl.Ping(ctx); err == nil {
			return nil
		} else if time.Now().After(deadline) {
			return fmt.Errorf("embedded broker did not come up: %w", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// cpuSeconds reads user+system CPU time of a process from /proc.
func cpuSeconds(pid int) (float64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, fmt.Errorf("read process stats: %w", err)
	}
	// Fields after the command name, which is in parentheses.
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+2:]))
	utime, _ := strconv.ParseFloat(f[11], 64)
	stime, _ := strconv.ParseFloat(f[12], 64)
	return (utime + stime) / 100, nil // USER_HZ is 100 on Linux
}

// peakRSS reads the peak resident set size (VmHWM) of a process, in bytes.
func peakRSS(pid int) (int64, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, fmt.Errorf("read process status: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10, err
		}
	}
	return 0, errors.New("no VmHWM in process status")
}

func readLines(path string) ([][]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	var out [][]byte
	for _, l := range bytes.Split(b, []byte("\n")) {
		if len(l) > 0 {
			out = append(out, l)
		}
	}
	return out, nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
