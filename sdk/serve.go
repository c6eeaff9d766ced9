package sdk

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"runtime/debug"
	"strconv"
	"sync"
	"time"

	"github.com/hashicorp/go-plugin"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/pluginrpc"
	"github.com/weir-streams/weir/internal/record"
)

// Serve runs the plugin: it answers Weir's handshake on standard output and
// serves the declared processors until Weir stops it. Call it from main,
// and write nothing to standard output before it. A bad declaration is a
// programming error: Serve prints it on standard error and exits with 1.
func Serve(specs ...ProcessorSpec) {
	svc, err := newService(specs)
	if err != nil {
		fmt.Fprintln(os.Stderr, "weir plugin:", err)
		os.Exit(1)
	}
	conf := &plugin.ServeConfig{
		HandshakeConfig: pluginrpc.Handshake,
		Plugins:         map[string]plugin.Plugin{pluginrpc.PluginName: &pluginrpc.ProcessorPlugin{Impl: svc}},
	}
	if os.Getenv(pluginrpc.Handshake.MagicCookieKey) != pluginrpc.Handshake.MagicCookieValue {
		// Not started by Weir: go-plugin says so and exits.
		plugin.Serve(conf)
		return
	}
	// Batches come on their own socket, made by Weir; listen before the
	// handshake so that it is ready when Weir's first batch is.
	path := os.Getenv(pluginrpc.EnvBatchSocket)
	if path == "" {
		fmt.Fprintf(os.Stderr, "weir plugin: %s is not set: this Weir is older than the plugin's SDK (plugin protocol %d)\n", pluginrpc.EnvBatchSocket, pluginrpc.Handshake.ProtocolVersion)
		os.Exit(1)
	}
	l, err := net.Listen("unix", path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "weir plugin: batch socket:", err)
		os.Exit(1)
	}
	if os.Getenv("GOGC") == "" {
		// A plugin's live heap is small (its configuration and the batch
		// in hand) while each batch allocates its records anew: with the
		// default GOGC the collector ran every batch or two and took a
		// fifth of the plugin's CPU. GOGC (the variable) still overrides.
		debug.SetGCPercent(pluginGCPercent)
	}
	done := make(chan error, 1)
	go func() { done <- pluginrpc.ServeBatches(l, svc.Process) }()
	stop, watched := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(watched)
		watchParent(stop, parentPoll)
	}()
	plugin.Serve(conf)
	close(stop)
	<-watched
	l.Close()
	if err := <-done; err != nil {
		fmt.Fprintln(os.Stderr, "weir plugin:", err)
	}
}

// parentPoll is how often the plugin looks whether Weir is still there.
const parentPoll = time.Second

// watchParent ends the plugin process once the Weir process that started
// it is gone, until stop is closed. Weir stops its plugins when it stops,
// but a Weir killed outright (SIGKILL, the OOM killer) cannot, and
// go-plugin's server does not notice: the plugin used to live on, orphaned,
// holding its memory and its socket. An orphan is given a new parent
// (init, or a subreaper), so a parent process id that changes means Weir
// is gone. The batches in hand had no one left to return to: there is
// nothing to flush, and exiting at once is safe.
func watchParent(stop <-chan struct{}, every time.Duration) {
	ppid := os.Getppid()
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			if os.Getppid() != ppid {
				fmt.Fprintln(os.Stderr, "weir plugin: the Weir process that started this plugin is gone; exiting")
				os.Exit(1)
			}
		}
	}
}

// pluginGCPercent is the plugin process's GOGC unless the environment
// sets one.
const pluginGCPercent = 400

// Local builds a processor of spec in this process from raw values,
// validated as Weir validates them (declared keys, validators, Check). It
// is for a plugin's own tests and benchmarks: Process on what it returns is
// exactly what Weir runs in the plugin process.
func Local(spec ProcessorSpec, values map[string]string, env Env) (Processor, error) {
	svc, err := newService([]ProcessorSpec{spec})
	if err != nil {
		return nil, err
	}
	if env.Logger == nil {
		env.Logger = slog.New(slog.DiscardHandler)
	}
	return svc.build(spec.Name, values, env)
}

// service implements pluginrpc.Service over the declared processors.
type service struct {
	specs    map[string]*declared
	manifest pluginrpc.Manifest
	logger   *slog.Logger

	mu        sync.Mutex
	next      uint64
	instances map[uint64]Processor
}

type declared struct {
	sdk  ProcessorSpec
	spec component.Spec // for validation and typed access
}

func newService(specs []ProcessorSpec) (*service, error) {
	s := &service{
		specs:     map[string]*declared{},
		instances: map[uint64]Processor{},
		manifest:  pluginrpc.Manifest{SDKVersion: int(pluginrpc.Handshake.ProtocolVersion)},
		logger:    slog.New(newHclogHandler(os.Stderr)),
	}
	if len(specs) == 0 {
		return nil, errors.New("Serve needs at least one ProcessorSpec")
	}
	for _, sp := range specs {
		if sp.Name == "" || sp.New == nil {
			return nil, fmt.Errorf("processor spec %q needs a Name and a New function", sp.Name)
		}
		if _, dup := s.specs[sp.Name]; dup {
			return nil, fmt.Errorf("processor %q is declared twice", sp.Name)
		}
		decl := pluginrpc.ComponentDecl{Name: sp.Name, Summary: sp.Summary, DynamicProperties: sp.DynamicProperties, HasCheck: sp.Check != nil}
		for _, p := range sp.Properties {
			if p.Key == pluginrpc.TimeoutKey {
				return nil, fmt.Errorf("processor %q: property %q is Weir's own (the call timeout of every plugin processor)", sp.Name, p.Key)
			}
			decl.Properties = append(decl.Properties, pluginrpc.PropertyDecl{
				Key: p.Key, Description: p.Description, Required: p.Required, Default: p.Default,
				Sensitive: p.Sensitive, Validator: p.Validator,
			})
		}
		cs, err := decl.Spec(func(component.Config, component.Env) (component.Processor, error) {
			return nil, errors.New("not built through the spec")
		})
		if err != nil {
			return nil, err
		}
		if sp.Check != nil {
			cs.Check = func(c component.Config) error { return sp.Check(configOf(c)) }
		}
		s.specs[sp.Name] = &declared{sdk: sp, spec: cs}
		s.manifest.Components = append(s.manifest.Components, decl)
	}
	return s, nil
}

func (s *service) Describe() (pluginrpc.Manifest, error) { return s.manifest, nil }

func (s *service) Configure(req pluginrpc.ConfigureRequest) (pluginrpc.ConfigureReply, error) {
	env := Env{Name: req.Name, Stream: req.Stream, Logger: s.logger.With("stream", req.Stream, "processor", req.Name)}
	p, reply, err := s.configure(req.Component, req.Values, env)
	if err != nil {
		return pluginrpc.ConfigureReply{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.next++
	s.instances[s.next] = p
	reply.Instance = s.next
	return reply, nil
}

func (s *service) build(name string, values map[string]string, env Env) (Processor, error) {
	p, _, err := s.configure(name, values, env)
	return p, err
}

// configure builds a processor and says which fields it reads (the
// reply's Instance is left for the caller).
func (s *service) configure(name string, values map[string]string, env Env) (Processor, pluginrpc.ConfigureReply, error) {
	var reply pluginrpc.ConfigureReply
	d, ok := s.specs[name]
	if !ok {
		return nil, reply, fmt.Errorf("plugin has no processor %q", name)
	}
	// NewConfig runs the processor's Check too.
	conf, probs := component.NewConfig(&d.spec, values)
	if len(probs) > 0 {
		return nil, reply, probs
	}
	pc := configOf(conf)
	p, err := d.sdk.New(pc, env)
	if err != nil {
		return nil, reply, fmt.Errorf("build %s: %w", name, err)
	}
	if d.sdk.Reads == nil {
		reply.AllFields = true
	} else {
		reply.Reads = d.sdk.Reads(pc)
	}
	return p, reply, nil
}

func (s *service) instance(id uint64) (Processor, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.instances[id]
	if !ok {
		return nil, fmt.Errorf("no processor instance %d", id)
	}
	return p, nil
}

// Check runs the component's validators and its Check on values and
// returns every problem found, one string each.
func (s *service) Check(req pluginrpc.ConfigureRequest) ([]string, error) {
	d, ok := s.specs[req.Component]
	if !ok {
		return nil, fmt.Errorf("plugin has no processor %q", req.Component)
	}
	// NewConfig runs the processor's Check once the keys are valid, and
	// reports each error of a joined one as a problem of its own.
	_, probs := component.NewConfig(&d.spec, req.Values)
	var out []string
	for _, p := range probs {
		out = append(out, p.String())
	}
	return out, nil
}

func (s *service) Process(id uint64, data []byte, scratch *pluginrpc.Scratch, dst []byte) ([]byte, error) {
	p, err := s.instance(id)
	if err != nil {
		return nil, err
	}
	in, err := scratch.Decode(data)
	if err != nil {
		return nil, fmt.Errorf("decode batch: %w", err)
	}
	b := &Batch{Topic: in.Topic, Partition: in.Partition, Records: in.Records}
	if err := safeProcess(p, b); err != nil {
		return nil, err
	}
	// Only what the processor changed goes back (pluginrpc.AppendDelta).
	return pluginrpc.AppendDelta(dst, in, b.Records), nil
}

// safeProcess turns a panic of the processor into an error, as Weir's
// chain does for built-in processors: a bug costs a batch of error records,
// not the plugin process.
func safeProcess(p Processor, b *Batch) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%s: processor panicked: %v", record.ErrRuntime, r)
		}
	}()
	return p.Process(context.Background(), b)
}

func (s *service) CloseInstance(id uint64) error {
	s.mu.Lock()
	p, ok := s.instances[id]
	delete(s.instances, id)
	s.mu.Unlock()
	if !ok {
		return nil
	}
	if c, ok := p.(Closer); ok {
		return c.Close(context.Background())
	}
	return nil
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
