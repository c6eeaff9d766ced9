// Package settings holds the engine component's keys, its spec and the one
// typed struct its configuration is decoded into. It is a package of its
// own so that config can decode and check a job's engine without importing
// the engine (which builds streams).
package settings

import (
	"errors"
	"fmt"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/remote"
)

// Name is the engine's component identifier.
const Name = "pkg.engine.engine.BrokerStreamProcessingEngine"

// The engine's keys.
const (
	KeyAppName       = "engine.app.name"
	KeyMaster        = "engine.master"
	KeyDriverMemory  = "engine.driver.memory"
	KeyBatchDuration = "engine.streaming.batchDuration"
	KeyMaxRate       = "engine.streaming.broker.maxRatePerPartition"
	KeyTimeout       = "engine.streaming.timeout"
	KeyUIPort        = "engine.ui.port"
)

// Engine is the engine configuration, typed. The engine keeps it and hands
// each stream the fields it obeys (stream.EngineParams: AppName as consumer
// group, Workers, BatchInterval, MaxRate); app reads the rest.
type Engine struct {
	AppName       string          // engine.app.name
	Workers       int             // engine.master
	BatchInterval time.Duration   // engine.streaming.batchDuration
	MaxRate       int64           // engine.streaming.broker.maxRatePerPartition, 0 = no limit
	Timeout       time.Duration   // engine.streaming.timeout, 0 = run until stopped
	MemoryLimit   int64           // engine.driver.memory, 0 = none
	UIPort        int             // engine.ui.port, -1 = no server, 0 = a free port
	UI            UI              // engine.ui.bindAddress, .profiling, .auth.*, .ssl.*
	Remote        remote.Settings // remote.api.*; Remote.Enabled() when a base URL is set
}

var masterRe = regexp.MustCompile(`^local(\[(\d+|\*)\])?$`)

// Spec declares the engine's keys.
func Spec() component.Spec {
	return component.Spec{
		Name: Name,
		Kind: component.KindEngine,
		Summary: "Runs the job's controller services and streams, and applies every change to them. " +
			"Services start before streams and stop after them.",
		Properties: append([]component.Property{
			{Key: KeyAppName, Description: "Application name: the Kafka consumer group of every stream and the dataflow name of the REST API. Processes with the same name share partitions.", Default: "weir", Validator: component.NonEmpty},
			{Key: KeyMaster, Description: "local[N]: N partition workers per stream (local = 1, local[*] = one per core the Go runtime uses: the container's CPU limit, or GOMAXPROCS).", Default: "local[*]", Validator: component.NewValidator("local, local[N] or local[*]", func(s string) error {
				if !masterRe.MatchString(s) {
					return fmt.Errorf("%q is not local, local[N] or local[*]", s)
				}
				if m := masterRe.FindStringSubmatch(s); m[2] == "0" {
					return fmt.Errorf("local[0] has no worker")
				}
				return nil
			})},
			{Key: KeyDriverMemory, Description: "Soft memory limit of the process (Go's GOMEMLIMIT), e.g. 512M or 2G. Unset: no limit.", Example: "512M", Validator: component.NewValidator("size with unit K, M or G", func(s string) error {
				_, err := ParseSize(s)
				return err
			})},
			{Key: KeyBatchDuration, Description: "Micro-batch interval in milliseconds: records fetched within one interval are processed and committed together.", Default: "200", Validator: component.IntRange(1, 3_600_000)},
			{Key: KeyMaxRate, Description: "Maximum records per second read from each partition; 0 = no limit.", Default: "0", Validator: component.IntRange(0, 1<<40)},
			{Key: KeyTimeout, Description: "Milliseconds after which the job stops by itself; -1 = run until stopped.", Default: "-1", Validator: component.IntRange(-1, 1<<50)},
			{Key: KeyUIPort, Description: "Port of the status server (/healthz, /metrics, status page) on all interfaces; 0 = a free port (logged), -1 = no server.", Default: "4050", Validator: component.IntRange(-1, 65535)},
		}, append(uiProperties(), remote.Properties()...)...),
		Config: component.ConfigOf[EngineConfig](),
	}
}

// EngineConfig is the engine's configuration as validation decodes it: one
// field per key, the status server's and the REST client's keys as
// embedded groups. Its Validate derives the Engine the process runs with.
type EngineConfig struct {
	AppName       string        `key:"engine.app.name"`
	Master        string        `key:"engine.master"`
	DriverMemory  string        `key:"engine.driver.memory"`
	BatchDuration time.Duration `key:"engine.streaming.batchDuration"`
	MaxRate       int64         `key:"engine.streaming.broker.maxRatePerPartition"`
	Timeout       time.Duration `key:"engine.streaming.timeout"`
	UIPort        int           `key:"engine.ui.port"`
	UI
	remote.ClientConfig

	engine Engine
}

// Validate checks the keys that must agree with each other (the status
// server's, the REST client's) and derives the Engine. Its error is a
// component.Problems naming each key, so a user sees every problem of the
// engine at once, at its line.
func (c *EngineConfig) Validate() error {
	e := Engine{AppName: c.AppName, Workers: Workers(c.Master), BatchInterval: c.BatchDuration, MaxRate: c.MaxRate,
		Timeout: max(c.Timeout, 0), UIPort: c.UIPort, UI: c.UI, Remote: c.ClientConfig.Settings(c.AppName)}
	var probs component.Problems
	if c.DriverMemory != "" {
		var err error
		if e.MemoryLimit, err = ParseSize(c.DriverMemory); err != nil {
			probs = append(probs, problem(KeyDriverMemory, err.Error()))
		}
	}
	probs = append(probs, c.UI.problems()...)
	if err := c.ClientConfig.Validate(); err != nil {
		var rp component.Problems
		if !errors.As(err, &rp) {
			return err
		}
		probs = append(probs, rp...)
	}
	if len(probs) > 0 {
		return probs
	}
	c.engine = e
	return nil
}

// Decode returns the Engine of a configuration validated against Spec.
// Its error only guards against one that was not.
func Decode(conf component.Config) (Engine, error) {
	c, err := component.Typed[EngineConfig](conf)
	if err != nil {
		return Engine{}, err
	}
	return c.engine, nil
}

func problem(key, msg string) component.Problem {
	return component.Problem{Key: key, Msg: fmt.Sprintf("property %q: %s", key, msg)}
}

// Workers returns the number of partition workers of an engine.master value.
// local[*] is one worker per CPU the Go runtime schedules on
// (GOMAXPROCS): in a container that is its CPU limit, rounded up, where
// runtime.NumCPU would count every core of the node (a pod limited to 2
// CPUs on a 64-core node ran 64 workers).
func Workers(master string) int {
	m := masterRe.FindStringSubmatch(master)
	if m == nil || m[2] == "" {
		return 1
	}
	if m[2] == "*" {
		return runtime.GOMAXPROCS(0)
	}
	n, _ := strconv.Atoi(m[2])
	return max(n, 1)
}

// ParseSize parses a memory size such as 512M, 2G, 2g or 1048576 into
// bytes.
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(strings.ToUpper(s))
	t = strings.TrimSuffix(t, "B")
	mult := int64(1)
	switch {
	case strings.HasSuffix(t, "K"):
		mult, t = 1<<10, t[:len(t)-1]
	case strings.HasSuffix(t, "M"):
		mult, t = 1<<20, t[:len(t)-1]
	case strings.HasSuffix(t, "G"):
		mult, t = 1<<30, t[:len(t)-1]
	case strings.HasSuffix(t, "T"):
		mult, t = 1<<40, t[:len(t)-1]
	}
	n, err := strconv.ParseInt(strings.TrimSpace(t), 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%q is not a size such as 512M or 2G", s)
	}
	return n * mult, nil
}
