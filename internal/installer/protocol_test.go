package installer

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weir-streams/weir/internal/pluginrpc"
)

// TestOlderProtocolRefused: a plugin built with an SDK of another protocol
// version (here 2, before Configure declared the fields a processor reads)
// is refused at start with a message that says so, instead of being sent
// batches it would misread. The plugin is a shell script that answers the
// go-plugin handshake line as such a plugin does: the handshake check is
// go-plugin's own, and no Go binary of the old SDK is kept to build.
func TestOlderProtocolRefused(t *testing.T) {
	old := pluginrpc.Handshake.ProtocolVersion - 1
	script := fmt.Sprintf("#!/bin/sh\necho '1|%d|unix|/nonexistent/weir-old-plugin.sock|netrpc'\nexec sleep 30\n", old)
	bin := filepath.Join(t.TempDir(), "oldplugin")
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	r, err := launch(bin, SumHex([]byte(script)), testLogger(t))
	if err == nil {
		r.kill()
		t.Fatalf("a plugin of protocol version %d was started", old)
	}
	for _, want := range []string{fmt.Sprintf("Plugin version: %d", old), fmt.Sprintf("speaks plugin protocol %d", pluginrpc.Handshake.ProtocolVersion), "rebuild"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}
