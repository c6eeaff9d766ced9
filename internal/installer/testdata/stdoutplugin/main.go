// Command stdoutplugin is a broken plugin for the installer's tests: it
// writes to standard output before sdk.Serve, which corrupts go-plugin's
// handshake line. Weir must refuse it with a clear error.
package main

import (
	"fmt"

	"github.com/weir-streams/weir/examples/plugins/urlrequest"
	"github.com/weir-streams/weir/sdk"
)

func main() {
	fmt.Println("starting my plugin!")
	sdk.Serve(urlrequest.Spec())
}
