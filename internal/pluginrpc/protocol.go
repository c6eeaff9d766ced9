// Package pluginrpc is the wire between Weir and a processor plugin: the
// go-plugin handshake, the net/rpc service a plugin serves (describe,
// configure, check, close), the batch socket (batchwire.go), and the
// binary encodings of a batch (codec.go) and of a plugin's reply
// (delta.go). The host side is used by internal/installer, the plugin side by
// the public sdk package; both must agree, so both live here.
//
// Transport: go-plugin's net/rpc protocol (gob over yamux over a Unix
// socket) for the plugin's life and its small calls, and a plain Unix
// socket beside it for batches (batchwire.go): a call carries a whole
// batch as one framed byte string each way, so the transport's fixed cost
// is paid once per batch and the per-record cost is the codec's. See
// BENCHMARKS.md, "Plugins", for the figures.
package pluginrpc

import (
	"context"
	"errors"
	"net/rpc"

	"github.com/hashicorp/go-plugin"
)

// PluginName is the name under which a plugin binary serves its processors.
const PluginName = "processor"

// TimeoutKey is the property Weir adds to every plugin processor: how long
// a batch call may take, in milliseconds, before the plugin is taken for
// hung, killed and restarted. A plugin may not declare it.
const TimeoutKey = "plugin.timeout.ms"

// DefaultTimeout is TimeoutKey's default: far above any sane batch, since
// a call that expires fails its whole batch into error records.
const DefaultTimeout = "30000"

// Handshake is checked by host and plugin before anything else. The magic
// cookie keeps a plugin binary from being run by hand by mistake (it then
// says it is a plugin and exits); ProtocolVersion changes whenever the
// service or the batch encoding does. Version 3: Configure answers a
// ConfigureReply (the fields the instance reads) instead of a bare handle.
var Handshake = plugin.HandshakeConfig{
	ProtocolVersion:  3,
	MagicCookieKey:   "WEIR_PLUGIN",
	MagicCookieValue: "a1f0c6e2-processor",
}

// Service is what a plugin serves. The sdk implements it over the
// plugin's declared processors.
type Service interface {
	// Describe returns the plugin's manifest.
	Describe() (Manifest, error)
	// Configure builds a processor instance of the named component with
	// the validated values, and returns its handle and the fields it reads.
	Configure(req ConfigureRequest) (ConfigureReply, error)
	// Check runs the named component's own check (its Check function) on
	// values, for `weir validate`, and returns the problems it found (none:
	// nil). An error means the check could not run.
	Check(req ConfigureRequest) ([]string, error)
	// Process runs instance over an encoded batch, decoded with s, and
	// appends the encoded result to dst. An error fails the whole batch. It is called from the
	// batch socket, not through net/rpc.
	Process(instance uint64, batch []byte, s *Scratch, dst []byte) ([]byte, error)
	// CloseInstance releases an instance.
	CloseInstance(instance uint64) error
}

// ConfigureRequest asks for a processor instance.
type ConfigureRequest struct {
	Component string
	Name      string
	Stream    string
	Values    map[string]string
}

// ConfigureReply is a configured instance: its handle, and the fields its
// processor reads. The host sends an instance only the fields it reads
// (AppendBatchFields); the fields it sets or removes come back in the
// reply's changes, applied to the host's whole records, so the fields it
// was not sent pass through unchanged.
type ConfigureReply struct {
	Instance uint64
	// AllFields says the processor reads every field (the default);
	// otherwise Reads lists those it reads, possibly none.
	AllFields bool
	Reads     []string
}

// ProcessorPlugin is the go-plugin Plugin of a processor plugin. Impl is
// set on the plugin side only.
type ProcessorPlugin struct {
	Impl Service
}

// Server returns the RPC server of the plugin side.
func (p *ProcessorPlugin) Server(*plugin.MuxBroker) (any, error) {
	if p.Impl == nil {
		return nil, errors.New("processor plugin has no implementation")
	}
	return &RPCServer{impl: p.Impl}, nil
}

// Client returns the host side's client.
func (p *ProcessorPlugin) Client(_ *plugin.MuxBroker, c *rpc.Client) (any, error) {
	return &Client{rpc: c}, nil
}

// RPCServer adapts a Service to net/rpc's method form. Its methods are
// called by net/rpc only.
type RPCServer struct {
	impl Service
}

// Describe serves Service.Describe.
func (s *RPCServer) Describe(_ struct{}, m *Manifest) error {
	var err error
	*m, err = s.impl.Describe()
	return err
}

// Configure serves Service.Configure.
func (s *RPCServer) Configure(req ConfigureRequest, reply *ConfigureReply) error {
	var err error
	*reply, err = s.impl.Configure(req)
	return err
}

// Check serves Service.Check.
func (s *RPCServer) Check(req ConfigureRequest, problems *[]string) error {
	var err error
	*problems, err = s.impl.Check(req)
	return err
}

// CloseInstance serves Service.CloseInstance.
func (s *RPCServer) CloseInstance(id uint64, _ *struct{}) error {
	return s.impl.CloseInstance(id)
}

// Client is the host's handle on a running plugin. It is safe for
// concurrent use: net/rpc multiplexes calls on one connection.
type Client struct {
	rpc *rpc.Client
}

// call makes an RPC that gives up when ctx ends. net/rpc has no context:
// the call is left to finish in the background (its reply is dropped),
// which is what the caller wants at shutdown, when the batch is abandoned
// and redelivered anyway.
func (c *Client) call(ctx context.Context, method string, args, reply any) error {
	call := c.rpc.Go(method, args, reply, make(chan *rpc.Call, 1))
	select {
	case <-call.Done:
		return call.Error
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Describe asks for the plugin's manifest.
func (c *Client) Describe(ctx context.Context) (Manifest, error) {
	var m Manifest
	err := c.call(ctx, "Plugin.Describe", struct{}{}, &m)
	return m, err
}

// Configure builds a processor instance in the plugin.
func (c *Client) Configure(ctx context.Context, req ConfigureRequest) (ConfigureReply, error) {
	var reply ConfigureReply
	err := c.call(ctx, "Plugin.Configure", req, &reply)
	return reply, err
}

// Check runs a component's own check in the plugin and returns the
// problems it found.
func (c *Client) Check(ctx context.Context, req ConfigureRequest) ([]string, error) {
	var problems []string
	err := c.call(ctx, "Plugin.Check", req, &problems)
	return problems, err
}

// CloseInstance releases an instance.
func (c *Client) CloseInstance(ctx context.Context, instance uint64) error {
	return c.call(ctx, "Plugin.CloseInstance", instance, &struct{}{})
}
