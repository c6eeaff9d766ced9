// Command urlrequest is the example Weir plugin: it serves the
// ParseUrlRequest processor. Weir starts it; run by hand, it says it is a
// plugin and exits.
package main

import (
	"github.com/weir-streams/weir/examples/plugins/urlrequest"
	"github.com/weir-streams/weir/sdk"
)

func main() {
	sdk.Serve(urlrequest.Spec())
}
