package pluginrpc

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"time"
)

// The batch socket carries batches beside go-plugin's connection. go-plugin
// (net/rpc, gob, yamux) starts the plugin, checks its hash, carries its
// standard error and the small calls (describe, configure, check, close);
// a batch of megabytes went through gob (a copy each way) and yamux's
// 256 KB stream window (a wake-up of the other process per window), which
// cost 10-15 µs per record. On a plain Unix socket a call is one framed
// write and one framed read each way.
//
// The host makes a private directory (0700) and passes the socket's path
// in the environment variable EnvBatchSocket; the plugin listens on it
// before the handshake, so it is ready when go-plugin's client is. Each
// connection carries one call at a time; the host keeps a pool of them, one
// per batch in flight.
//
// Frames, integers little-endian:
//
//	request: u32 n | u64 instance | n-8 bytes of AppendBatch
//	reply:   u32 n | u8 status | n-1 bytes: the result batch (status 0) or
//	         the plugin's error message (status 1)
const EnvBatchSocket = "WEIR_PLUGIN_BATCH_SOCKET"

// RequestHeader is the room AppendRequest leaves before the batch.
const RequestHeader = 12

const replyHeader = 5

// maxFrame bounds a frame's length, so a corrupt length cannot make either
// side allocate without limit. A partition batch of 4,096 records of a few
// kilobytes each is far below it.
const maxFrame = 1 << 30

const (
	statusOK    = 0
	statusError = 1
)

// StartRequest returns dst with room for the request header; append the
// batch to it with AppendBatch and send it with Batches.Call.
func StartRequest(dst []byte) []byte {
	return append(dst[:0], make([]byte, RequestHeader)...)
}

// PluginError is an error the plugin's own code returned for a batch: the
// plugin is alive and its connection usable.
type PluginError struct{ Msg string }

func (e *PluginError) Error() string { return e.Msg }

// ErrCallTimeout is the error of a call that did not answer in time.
var ErrCallTimeout = errors.New("the plugin did not answer the batch in time")

// Batches is the host's pool of connections to a plugin's batch socket.
type Batches struct {
	path string

	mu     sync.Mutex
	idle   []net.Conn
	closed bool
}

// NewBatches returns the pool for the socket at path. Connections are
// made on demand.
func NewBatches(path string) *Batches { return &Batches{path: path} }

func (b *Batches) get(ctx context.Context) (net.Conn, error) {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return nil, errors.New("the plugin's batch connection is closed")
	}
	if n := len(b.idle); n > 0 {
		c := b.idle[n-1]
		b.idle = b.idle[:n-1]
		b.mu.Unlock()
		return c, nil
	}
	b.mu.Unlock()
	var d net.Dialer
	c, err := d.DialContext(ctx, "unix", b.path)
	if err != nil {
		return nil, fmt.Errorf("connect to the plugin's batch socket: %w", err)
	}
	return c, nil
}

func (b *Batches) put(c net.Conn) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		c.Close()
		return
	}
	b.idle = append(b.idle, c)
}

// Close closes the idle connections; a call in flight closes its own when
// it ends.
func (b *Batches) Close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed = true
	for _, c := range b.idle {
		c.Close()
	}
	b.idle = nil
}

// Call sends req (StartRequest, then AppendBatch) for instance and returns
// the plugin's result batch, in a new buffer the caller owns (the records
// decoded from it point into it). req is not kept: the caller may reuse it
// once Call returns.
//
// A call that takes longer than timeout (0: no limit) fails with
// ErrCallTimeout, and one whose ctx ends fails with ctx's error; in both
// cases, and when the connection breaks, the connection is dropped, since
// a late reply would be read as the next call's. An error the plugin
// returned is a *PluginError and keeps the connection.
func (b *Batches) Call(ctx context.Context, timeout time.Duration, instance uint64, req []byte) ([]byte, error) {
	if len(req) < RequestHeader || len(req)-4 > maxFrame {
		return nil, fmt.Errorf("batch request of %d bytes is malformed or too large", len(req))
	}
	c, err := b.get(ctx)
	if err != nil {
		return nil, err
	}
	if timeout > 0 {
		_ = c.SetDeadline(time.Now().Add(timeout))
	} else {
		_ = c.SetDeadline(time.Time{})
	}
	// Ending ctx unblocks the read or write at once: a deadline in the past.
	stop := context.AfterFunc(ctx, func() { _ = c.SetDeadline(time.Unix(1, 0)) })
	out, err := roundTrip(c, instance, req)
	if !stop() || err != nil && !isPluginError(err) {
		c.Close()
		switch {
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case errors.Is(err, os.ErrDeadlineExceeded):
			return nil, fmt.Errorf("%w (%s)", ErrCallTimeout, timeout)
		case err == nil:
			return out, nil // answered just as ctx ended
		}
		return nil, err
	}
	b.put(c)
	return out, err
}

func isPluginError(err error) bool {
	var pe *PluginError
	return errors.As(err, &pe)
}

func roundTrip(c net.Conn, instance uint64, req []byte) ([]byte, error) {
	binary.LittleEndian.PutUint32(req, uint32(len(req)-4))
	binary.LittleEndian.PutUint64(req[4:], instance)
	if _, err := c.Write(req); err != nil {
		return nil, fmt.Errorf("send the batch to the plugin: %w", err)
	}
	var hdr [replyHeader]byte
	if _, err := io.ReadFull(c, hdr[:]); err != nil {
		return nil, fmt.Errorf("read the plugin's reply: %w", err)
	}
	n := binary.LittleEndian.Uint32(hdr[:])
	if n < 1 || n > maxFrame {
		return nil, fmt.Errorf("the plugin's reply has a bad length %d", n)
	}
	out := make([]byte, n-1)
	if _, err := io.ReadFull(c, out); err != nil {
		return nil, fmt.Errorf("read the plugin's reply: %w", err)
	}
	switch hdr[4] {
	case statusOK:
		return out, nil
	case statusError:
		return nil, &PluginError{Msg: string(out)}
	}
	return nil, fmt.Errorf("the plugin's reply has an unknown status %d", hdr[4])
}

// ProcessFunc runs one batch in the plugin: it decodes batch with s,
// appends the encoded result to dst, or returns the error that fails the
// batch.
type ProcessFunc func(instance uint64, batch []byte, s *Scratch, dst []byte) ([]byte, error)

// ServeBatches answers calls on l with process until l is closed, and
// returns once every connection's goroutine has ended. Each connection
// keeps its reply buffer and decoding scratch; the request buffer is new
// for each call, since the decoded records point into it and a processor
// may keep them (or a string of them) after its call.
func ServeBatches(l net.Listener, process ProcessFunc) error {
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		conns = map[net.Conn]bool{}
	)
	defer func() {
		mu.Lock()
		for c := range conns {
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
	}()
	for {
		c, err := l.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return nil
			}
			return fmt.Errorf("batch socket: %w", err)
		}
		mu.Lock()
		conns[c] = true
		mu.Unlock()
		wg.Add(1)
		go func() {
			defer wg.Done()
			serveConn(c, process)
			mu.Lock()
			delete(conns, c)
			mu.Unlock()
			c.Close()
		}()
	}
}

// serveConn answers the calls of one connection until it breaks or the
// host closes it.
func serveConn(c net.Conn, process ProcessFunc) {
	var out []byte
	var scratch Scratch
	var hdr [4]byte
	for {
		if _, err := io.ReadFull(c, hdr[:]); err != nil {
			return
		}
		n := binary.LittleEndian.Uint32(hdr[:])
		if n < 8 || n > maxFrame {
			return
		}
		in := make([]byte, n)
		if _, err := io.ReadFull(c, in); err != nil {
			return
		}
		instance := binary.LittleEndian.Uint64(in)
		out = append(out[:0], make([]byte, replyHeader)...)
		res, err := process(instance, in[8:], &scratch, out)
		if err != nil {
			res = append(append(out[:0], make([]byte, replyHeader)...), err.Error()...)
			res[4] = statusError
		} else {
			res[4] = statusOK
		}
		binary.LittleEndian.PutUint32(res, uint32(len(res)-4))
		if _, err := c.Write(res); err != nil {
			return
		}
		out = res
	}
}
