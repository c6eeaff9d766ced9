//go:build deploytest

// Package deploy_test checks the Helm chart the way a cluster would run it,
// with no cluster: the chart rendered by helm, its job validated by weir,
// and its Deployment run by podman kube play against a real Kafka-protocol
// broker. scripts/test-deploy builds the image and the tools and runs these
// tests (go test -tags deploytest ./deploy/); the tag keeps them out of a
// plain go test ./..., which has neither.
//
// The environment names the tools; a test fails when one is missing:
//
//	HELM       helm binary
//	WEIR_BIN   weir binary built from this tree
//	WEIR_IMAGE image reference loaded into podman's storage (localhost/weir:<version>)
//	podman     on PATH, configured by CONTAINERS_CONF and CONTAINERS_STORAGE_CONF
package deploy_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
	"gopkg.in/yaml.v3"

	"github.com/weir-streams/weir/internal/streamtest"
)

const chartDir = "helm/weir"

// env returns a required environment variable or fails the test.
func env(t *testing.T, name string) string {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		t.Fatalf("%s is not set: run scripts/test-deploy", name)
	}
	return v
}

// render runs helm template on the chart with --set values and returns the
// manifests.
func render(t *testing.T, release string, set ...string) []byte {
	t.Helper()
	args := []string{"template", release, chartDir}
	for _, s := range set {
		args = append(args, "--set", s)
	}
	out, err := exec.Command(env(t, "HELM"), args...).Output()
	if err != nil {
		t.Fatalf("helm %s: %v\n%s", strings.Join(args, " "), err, stderrOf(err))
	}
	return out
}

func stderrOf(err error) string {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return string(ee.Stderr)
	}
	return ""
}

// documents splits rendered manifests into objects.
func documents(t *testing.T, manifests []byte) []map[string]any {
	t.Helper()
	dec := yaml.NewDecoder(bytes.NewReader(manifests))
	var docs []map[string]any
	for {
		var d map[string]any
		err := dec.Decode(&d)
		if errors.Is(err, io.EOF) {
			return docs
		}
		if err != nil {
			t.Fatalf("rendered manifests: %v", err)
		}
		if d != nil {
			docs = append(docs, d)
		}
	}
}

func ofKind(docs []map[string]any, kind string) []map[string]any {
	var out []map[string]any
	for _, d := range docs {
		if d["kind"] == kind {
			out = append(out, d)
		}
	}
	return out
}

// TestChartJobValidates: the job file in the rendered ConfigMap passes
// weir validate, with the variables the Deployment sets.
func TestChartJobValidates(t *testing.T) {
	docs := documents(t, render(t, "weir", "kafka.brokers=kafka-0.kafka:9092"))
	cms := ofKind(docs, "ConfigMap")
	if len(cms) != 1 {
		t.Fatalf("rendered %d ConfigMaps, want 1", len(cms))
	}
	job, _ := cms[0]["data"].(map[string]any)["job.yml"].(string)
	if !strings.Contains(job, "engine.app.name") {
		t.Fatalf("ConfigMap job.yml is not a job file:\n%s", job)
	}
	path := filepath.Join(t.TempDir(), "job.yml")
	if err := os.WriteFile(path, []byte(job), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(env(t, "WEIR_BIN"), "validate", "--conf", path)
	// The variables the rendered Deployment gives the container.
	cmd.Env = append(os.Environ(), "BROKER_LIST=kafka-0.kafka:9092", "WEIR_UI_PORT=4050")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("weir validate of the chart's job: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "valid (") {
		t.Fatalf("weir validate said: %s", out)
	}

	// A job with a mistake is refused the same way, so the check above can fail.
	bad := strings.Replace(job, "value.regex:", "value.regx:", 1)
	if err := os.WriteFile(path, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd = exec.Command(env(t, "WEIR_BIN"), "validate", "--conf", path)
	cmd.Env = append(os.Environ(), "BROKER_LIST=kafka-0.kafka:9092", "WEIR_UI_PORT=4050")
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "value.regx") {
		t.Fatalf("weir validate accepted a misspelt key: %v\n%s", err, out)
	}
}

// TestChartSecretsAndScaler: secrets are both mounted as files and exposed
// as variables, and the KEDA trigger takes the job's group and topic.
func TestChartSecretsAndScaler(t *testing.T) {
	docs := documents(t, render(t, "weir", "kafka.brokers=k:9092", "autoscaling.enabled=true",
		"secrets[0].secretName=weir-kafka", "secrets[0].keys[0].key=password", "secrets[0].keys[0].env=KAFKA_PASSWORD"))
	deps := ofKind(docs, "Deployment")
	if len(deps) != 1 {
		t.Fatalf("rendered %d Deployments, want 1", len(deps))
	}
	y, _ := yaml.Marshal(deps[0])
	for _, want := range []string{"secretName: weir-kafka", "mountPath: /etc/weir/secrets/weir-kafka", "name: KAFKA_PASSWORD", "secretKeyRef:"} {
		if !strings.Contains(string(y), want) {
			t.Errorf("Deployment lacks %q:\n%s", want, y)
		}
	}
	if strings.Contains(string(y), "replicas:") {
		t.Errorf("with autoscaling the Deployment must leave replicas to KEDA:\n%s", y)
	}
	sos := ofKind(docs, "ScaledObject")
	if len(sos) != 1 {
		t.Fatalf("rendered %d ScaledObjects, want 1", len(sos))
	}
	y, _ = yaml.Marshal(sos[0])
	for _, want := range []string{"consumerGroup: IndexApacheLogsDemo", "topic: pipeline_raw", `allowIdleConsumers: "false"`, "type: kafka"} {
		if !strings.Contains(string(y), want) {
			t.Errorf("ScaledObject lacks %q:\n%s", want, y)
		}
	}
}

// freePort returns a port nothing listens on now.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func podman(t *testing.T, args ...string) string {
	t.Helper()
	out, err := exec.Command("podman", args...).CombinedOutput()
	if err != nil {
		t.Fatalf("podman %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// waitHTTP waits until url answers 200.
func waitHTTP(t *testing.T, url string, timeout time.Duration, why func() string) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		resp, err := http.Get(url)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s did not answer 200 within %v (last: %v)\n%s", url, timeout, err, why())
		}
		time.Sleep(200 * time.Millisecond)
	}
}

var recordsIn = regexp.MustCompile(`(?m)^weir_stream_records_in_total\{[^}]*\} (\S+)$`)

// consumed reads weir_stream_records_in_total of one replica.
func consumed(t *testing.T, port int) int64 {
	t.Helper()
	resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/metrics", port))
	if err != nil {
		t.Fatalf("metrics: %v", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	m := recordsIn.FindSubmatch(body)
	if m == nil {
		return 0
	}
	f, err := strconv.ParseFloat(string(m[1]), 64)
	if err != nil {
		t.Fatalf("metrics: %q: %v", m[1], err)
	}
	return int64(f)
}

// statusLine is the log line of the status server's address, in the
// text or the JSON log format.
var statusLine = regexp.MustCompile(`status server listening.*?address\W*(?:\[[^\]]*\]|[^:"\s]*):(\d+)`)

// TestKubePlayTwoReplicas runs the rendered Deployment, two replicas, with
// podman kube play against a broker on 127.0.0.1: the replicas join one
// consumer group, share the four partitions of pipeline_raw, and every
// record of the real access log is processed once.
//
// The pods use the host's network (hostNetwork, podman kube play --network
// host) to reach the broker; as they share it, each takes a free status
// port (statusPort=0), read from its log.
func TestKubePlayTwoReplicas(t *testing.T) {
	image := env(t, "WEIR_IMAGE")
	repo, tag, _ := strings.Cut(image, ":")
	if _, err := exec.LookPath("podman"); err != nil {
		t.Fatalf("podman: %v", err)
	}
	broker := streamtest.StartBroker(t)
	broker.CreateTopic(t, "pipeline_raw", 4)
	const group = "IndexApacheLogsDemo"

	manifests := render(t, "weir", "kafka.brokers="+broker.Addr, "hostNetwork=true", "statusPort=0",
		"image.repository="+repo, "image.tag="+tag, "image.pullPolicy=Never", "replicaCount=2")
	path := filepath.Join(t.TempDir(), "weir.yaml")
	if err := os.WriteFile(path, manifests, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		out, err := exec.Command("podman", "kube", "down", path).CombinedOutput()
		if err != nil {
			t.Errorf("podman kube down: %v\n%s", err, out)
		}
	})
	t.Logf("podman kube play:\n%s", podman(t, "kube", "play", "--network", "host", path))
	containers := []string{"weir-pod-0-weir", "weir-pod-1-weir"}
	logs := func() string {
		var b strings.Builder
		for _, c := range containers {
			out, _ := exec.Command("podman", "logs", "--tail", "30", c).CombinedOutput()
			fmt.Fprintf(&b, "--- logs of %s:\n%s\n", c, out)
		}
		return b.String()
	}
	ports := map[string]int{}
	deadline := time.Now().Add(90 * time.Second)
	for _, c := range containers {
		for {
			out, _ := exec.Command("podman", "logs", c).CombinedOutput()
			if m := statusLine.FindAllSubmatch(out, -1); m != nil {
				ports[c], _ = strconv.Atoi(string(m[len(m)-1][1]))
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s logged no status server address within 90 s\n%s", c, logs())
			}
			time.Sleep(200 * time.Millisecond)
		}
		waitHTTP(t, fmt.Sprintf("http://127.0.0.1:%d/readyz", ports[c]), 90*time.Second, logs)
	}

	// Both replicas in the group, each with partitions, before any input:
	// so that no rebalance happens while the log is processed.
	cl, err := kgo.NewClient(kgo.SeedBrokers(broker.Addr))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	adm := kadm.NewClient(cl)
	deadline = time.Now().Add(60 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		described, err := adm.DescribeGroups(ctx, group)
		cancel()
		assigned := 0
		withPartitions := 0
		if err == nil {
			g := described[group]
			for _, m := range g.Members {
				if ca, ok := m.Assigned.AsConsumer(); ok {
					n := 0
					for _, tp := range ca.Topics {
						n += len(tp.Partitions)
					}
					assigned += n
					if n > 0 {
						withPartitions++
					}
				}
			}
			if g.State == "Stable" && len(g.Members) == 2 && withPartitions == 2 && assigned == 4 {
				t.Logf("group %s: 2 members, 4 partitions assigned", group)
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("group %s never had both replicas with the 4 partitions (err %v, %d members with partitions, %d assigned)\n%s",
				group, err, withPartitions, assigned, logs())
		}
		time.Sleep(250 * time.Millisecond)
	}

	lines := streamtest.AccessLogLines(t)
	broker.ProduceLines(t, "pipeline_raw", lines)
	total := int64(len(lines))
	deadline = time.Now().Add(3 * time.Minute)
	for {
		out, errs := broker.Count(t, "pipeline_events"), broker.Count(t, "pipeline_errors")
		if out+errs >= total {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d events + %d errors of %d inputs within 3 minutes\n%s", out, errs, total, logs())
		}
		time.Sleep(250 * time.Millisecond)
	}

	// Processed once: each replica consumed a share, the shares add up to
	// the input, the committed offsets reach the end of every partition,
	// and the outputs hold exactly one record per input (ids come from the
	// input's topic, partition and offset, so a replay would repeat one).
	deadline = time.Now().Add(60 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		lag, err := adm.Lag(ctx, group)
		cancel()
		if err == nil && lag[group].Lag.Total() == 0 && len(lag[group].Lag.Sorted()) == 4 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("group %s still has uncommitted input after the outputs were written (err %v)\n%s", group, err, logs())
		}
		time.Sleep(250 * time.Millisecond)
	}
	a, b := consumed(t, ports[containers[0]]), consumed(t, ports[containers[1]])
	t.Logf("%s consumed %d, %s %d, of %d", containers[0], a, containers[1], b, total)
	if a == 0 || b == 0 || a+b != total {
		t.Errorf("replicas consumed %d and %d records; want both > 0 adding up to %d", a, b, total)
	}
	out := broker.Consume(t, "pipeline_events", int(broker.Count(t, "pipeline_events")), time.Minute)
	errs := broker.Consume(t, "pipeline_errors", int(broker.Count(t, "pipeline_errors")), time.Minute)
	ids := map[string]bool{}
	for _, r := range append(out, errs...) {
		ids[string(r.Key)] = true
	}
	if int64(len(out)+len(errs)) != total || int64(len(ids)) != total {
		t.Errorf("%d events + %d errors with %d distinct ids; want %d of each", len(out), len(errs), len(ids), total)
	}
}
