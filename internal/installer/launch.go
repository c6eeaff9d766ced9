package installer

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"

	"github.com/weir-streams/weir/internal/pluginrpc"
)

// startTimeout bounds a plugin's start up to its handshake.
const startTimeout = 20 * time.Second

// running is a started plugin process.
type running struct {
	client  *plugin.Client
	rpc     *pluginrpc.Client
	batches *pluginrpc.Batches
	dir     string // holds the batch socket
	cmd     *exec.Cmd
}

// kill stops the process and removes its batch socket. go-plugin asks the
// plugin to quit and waits up to 2 s before it kills it.
func (r *running) kill() {
	r.batches.Close()
	r.client.Kill()
	os.RemoveAll(r.dir)
}

// killHard kills the process at once (SIGKILL) and cleans up as kill does:
// for a plugin that crashed, broke its connection or hung, whose graceful
// quit would only wait (a hung batch keeps it from exiting).
func (r *running) killHard() {
	if r.cmd.Process != nil {
		_ = r.cmd.Process.Kill()
	}
	r.kill()
}

// launch starts the plugin binary bin, whose sha256 must be sum (go-plugin
// hashes the file again just before it runs it, so a binary replaced since
// Weir checked the lock is refused too), and returns its RPC client. The
// plugin's standard error is logged through logger.
func launch(bin, sum string, logger *slog.Logger) (*running, error) {
	want, err := hex.DecodeString(sum)
	if err != nil {
		return nil, fmt.Errorf("plugin %s: lock file sha256 %q is not hex", bin, sum)
	}
	// A private directory (0700) for the batch socket: only this user can
	// connect to it.
	dir, err := os.MkdirTemp("", "weir-plugin-")
	if err != nil {
		return nil, fmt.Errorf("plugin %s: batch socket directory: %w", bin, err)
	}
	sock := filepath.Join(dir, "batch.sock")
	cmd := exec.Command(bin)
	// go-plugin appends Weir's environment and its own variables to these.
	cmd.Env = []string{pluginrpc.EnvBatchSocket + "=" + sock}
	c := plugin.NewClient(&plugin.ClientConfig{
		HandshakeConfig:  pluginrpc.Handshake,
		Plugins:          map[string]plugin.Plugin{pluginrpc.PluginName: &pluginrpc.ProcessorPlugin{}},
		Cmd:              cmd,
		SecureConfig:     &plugin.SecureConfig{Checksum: want, Hash: sha256.New()},
		AllowedProtocols: []plugin.Protocol{plugin.ProtocolNetRPC},
		StartTimeout:     startTimeout,
		Logger:           hclogTo(logger),
	})
	rpcClient, err := c.Client()
	if err != nil {
		c.Kill()
		os.RemoveAll(dir)
		return nil, fmt.Errorf("start plugin %s: %w", bin, explainStart(err))
	}
	raw, err := rpcClient.Dispense(pluginrpc.PluginName)
	if err != nil {
		c.Kill()
		os.RemoveAll(dir)
		return nil, fmt.Errorf("start plugin %s: %w", bin, err)
	}
	return &running{client: c, rpc: raw.(*pluginrpc.Client), batches: pluginrpc.NewBatches(sock), dir: dir, cmd: cmd}, nil
}

// explainStart adds what an operator needs to know to go-plugin's start
// errors.
func explainStart(err error) error {
	switch {
	case err == plugin.ErrChecksumsDoNotMatch:
		return fmt.Errorf("the binary changed since it was installed (its sha256 is not the lock file's); reinstall it: %w", err)
	case strings.Contains(err.Error(), "incompatible API version with plugin"):
		return fmt.Errorf("the plugin was built with a Weir SDK of another plugin protocol (this Weir speaks plugin protocol %d); rebuild it with this Weir's SDK: %w", pluginrpc.Handshake.ProtocolVersion, err)
	case strings.Contains(err.Error(), "Unrecognized remote plugin message"):
		return fmt.Errorf("the plugin did not answer the handshake (did it write to standard output before sdk.Serve?): %w", err)
	}
	return err
}

// hclogTo returns an hclog logger, which go-plugin requires, that writes
// through logger: go-plugin's own messages and the plugin's standard error
// become Weir log lines.
func hclogTo(logger *slog.Logger) hclog.Logger {
	return hclog.New(&hclog.LoggerOptions{
		Name:        "plugin",
		Level:       hclog.Info,
		Output:      &lineLogger{logger: logger},
		DisableTime: true,
	})
}

// lineLogger turns each line written to it into a log record.
type lineLogger struct {
	logger *slog.Logger
	mu     sync.Mutex
	buf    []byte
}

func (w *lineLogger) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	for {
		i := strings.IndexByte(string(w.buf), '\n')
		if i < 0 {
			return len(p), nil
		}
		line := strings.TrimSpace(string(w.buf[:i]))
		w.buf = w.buf[i+1:]
		if line == "" {
			continue
		}
		lvl := slog.LevelInfo
		switch {
		case strings.Contains(line, "error closing client during Kill: err=\"unexpected EOF\""),
			strings.Contains(line, "plugin failed to exit gracefully"):
			// go-plugin's net/rpc plugins exit on Control.Quit before
			// replying to it, so every stop logs these two warnings; the
			// process is killed right after, which is what Weir wants.
			lvl = slog.LevelDebug
		case strings.Contains(line, "plugin process exited") && !strings.Contains(line, "error="):
			// A normal stop; a crash carries error= and stays visible.
			lvl = slog.LevelDebug
		case strings.HasPrefix(line, "[ERROR]"):
			lvl = slog.LevelError
		case strings.HasPrefix(line, "[WARN]"):
			lvl = slog.LevelWarn
		case strings.HasPrefix(line, "[DEBUG]"), strings.HasPrefix(line, "[TRACE]"):
			lvl = slog.LevelDebug
		}
		w.logger.Log(context.Background(), lvl, "plugin", "line", line)
	}
}

var _ io.Writer = (*lineLogger)(nil)
