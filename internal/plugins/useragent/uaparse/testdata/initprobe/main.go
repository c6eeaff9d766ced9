// Command initprobe imports uaparse as every weir binary does, for
// TestModelBuiltOnFirstUse. Run with GODEBUG=inittrace=1, it shows what the
// package's initialisation costs a process that analyses no user agent. It
// prints the live heap after a collection; given the argument "use", it
// first analyses one user agent, which builds the model.
package main

import (
	"fmt"
	"os"
	"runtime"

	"github.com/weir-streams/weir/internal/plugins/useragent/uaparse"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "use" {
		r := uaparse.New(uaparse.Options{}).Analyze("Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) " +
			"AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1")
		fmt.Println("DeviceClass", r.Get("DeviceClass"))
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fmt.Println("heap", ms.HeapAlloc)
}
