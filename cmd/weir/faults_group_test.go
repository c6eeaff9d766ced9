package main

import (
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/streamtest"
	"github.com/weir-streams/weir/internal/testserver/toxi"
)

// kafkaFaults are the faults of the Kafka link that the group tests apply
// while the group changes: one that slows it, one that breaks its
// requests, one that silences it, one that cuts it.
var kafkaFaults = []struct {
	name  string
	apply func(t *testing.T, p *toxi.Proxy) func()
}{
	{"latency", func(t *testing.T, p *toxi.Proxy) func() { f := p.Latency(t, 1000, 250); return func() { f.Remove(t) } }},
	{"reset_peer", func(t *testing.T, p *toxi.Proxy) func() { f := p.ResetPeer(t, 100); return func() { f.Remove(t) } }},
	{"blackhole", func(t *testing.T, p *toxi.Proxy) func() { f := p.Blackhole(t); return func() { f.Remove(t) } }},
	{"partition", func(t *testing.T, p *toxi.Proxy) func() { p.Disable(t); return func() { p.Enable(t) } }},
}

// TestFaultKafkaRebalance: while a fault is on the Kafka link, a second
// weir process of the same application starts and joins the group, so the
// partitions are rebalanced in the middle of the fault. Through a
// partition or a blackhole the second process cannot start (a process
// checks at start that the broker answers, and exits saying why); started
// again after the heal, as a supervisor would, it joins then. Once the fault is removed both
// processes are in the group and ready, every input has its record, the
// group commits every input, and the duplicates stay within what
// uncommitted batches hold: a partition handed over is read from its last
// commit, not from the start, and none is left without a reader.
func TestFaultKafkaRebalance(t *testing.T) {
	for _, fc := range kafkaFaults {
		t.Run(fc.name, func(t *testing.T) {
			r := startFaultRun(t, "fault-rebalance-"+fc.name)
			r.midRun(t)
			heal := fc.apply(t, r.proxy)
			job := parsingJob{App: r.app, MaxRate: faultRate}
			p2, base2 := startWithStatus(t, job, "BROKER_LIST="+r.proxy.Addr())
			time.Sleep(faultHold())
			heal()
			// A process checks at start that the broker answers (it
			// creates the topics, for at most 15 s) and exits if it does
			// not: through a partition, or a blackhole (whose held
			// connections are closed when it ends), the second process
			// ends, saying why, and the supervisor starts it again.
			waitOutput(t, p2, `msg="job started"`, `msg="job failed"`)
			if fc.name == "partition" && !strings.Contains(p2.output(), "unable to dial") {
				t.Errorf("the second process does not say the broker is unreachable:\n%s", p2.output())
			}
			if strings.Contains(p2.output(), `msg="job failed"`) {
				t.Logf("the second process could not start through the fault; started again")
				_, base2 = startWithStatus(t, job, "BROKER_LIST="+r.proxy.Addr())
			}
			r.finish(t, faultMaxDup())
			waitReady(t, base2, 60*time.Second)
			deadline := time.Now().Add(60 * time.Second)
			for {
				members := groupMembers(t, r.b, r.app)
				if len(members) == 2 {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("group %s has members %v, want the two processes", r.app, members)
				}
				time.Sleep(200 * time.Millisecond)
			}
			// The first process handed partitions over to the second.
			for metricSum(t, r.base, "weir_stream_rebalances_total", `kind="revoked"`)+metricSum(t, r.base, "weir_stream_rebalances_total", `kind="lost"`) == 0 {
				if time.Now().After(deadline) {
					c := http.Client{Timeout: 10 * time.Second}
					if resp, err := c.Get(r.base + "/metrics"); err == nil {
						b, _ := io.ReadAll(resp.Body)
						resp.Body.Close()
						for _, l := range strings.Split(string(b), "\n") {
							if strings.Contains(l, "rebalances") {
								t.Log(l)
							}
						}
					}
					t.Fatalf("the first process gave up no partition: no rebalance happened")
				}
				time.Sleep(200 * time.Millisecond)
			}
		})
	}
}

// waitOutput waits until p has written one of want.
func waitOutput(t *testing.T, p *proc, want ...string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		out := p.output()
		for _, w := range want {
			if strings.Contains(out, w) {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("none of %q within 60 s:\n%s", want, out)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestFaultKafkaPipelineSwap: while a fault is on the Kafka link, the job
// file of a process run with --watch is edited (the parser's record type
// changes), so the stream swaps its processor chain with batches in
// flight that cannot reach the broker. Once the fault is removed, the swap
// is applied (logged once), every input has its record of one of the two
// types, the records of the last inputs have the new type, the group
// commits every input, and the duplicates stay within what uncommitted
// batches hold.
func TestFaultKafkaPipelineSwap(t *testing.T) {
	for _, fc := range kafkaFaults {
		t.Run(fc.name, func(t *testing.T) {
			r, path := startFaultRunArgs(t, "fault-swap-"+fc.name, []string{"--watch"})
			job, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			r.midRun(t)
			heal := fc.apply(t, r.proxy)
			if err := os.WriteFile(path, []byte(strings.Replace(string(job), "record.type: apache_log", "record.type: apache_log_v2", 1)), 0o644); err != nil {
				t.Fatal(err)
			}
			time.Sleep(faultHold())
			heal()
			r.finish(t, faultMaxDup())
			waitOutput(t, r.p, "change=pipeline")
			if n := strings.Count(r.p.output(), "change=pipeline"); n != 1 {
				t.Errorf("the edit was applied %d times, want once", n)
			}
			if strings.Contains(r.p.output(), "change=dataflow") {
				t.Errorf("a pipeline edit restarted the dataflow")
			}
			recs := streamtest.Decode(t, r.b.Consume(t, "events", int(r.b.Count(t, "events")), 60*time.Second))
			types := map[string]int{}
			for _, rec := range recs {
				types[rec.Type]++
			}
			if len(types) != 2 || types["apache_log"] == 0 || types["apache_log_v2"] == 0 {
				t.Errorf("record types %v, want apache_log before the swap and apache_log_v2 after", types)
			}
			// The record of the last input of each partition was made after
			// the swap.
			pos := parsedInputIDs(t, r.b, "raw", r.n)
			last := map[int32]int64{}
			for _, p := range pos {
				last[p.partition] = max(last[p.partition], p.offset)
			}
			for _, rec := range recs {
				if p, ok := pos[rec.ID]; ok && p.offset == last[p.partition] && rec.Type != "apache_log_v2" {
					t.Errorf("record %s of the last input of partition %d has type %q after the swap", rec.ID, p.partition, rec.Type)
				}
			}
			t.Logf("record types %v", types)
		})
	}
}
