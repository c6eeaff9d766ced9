// Command hangplugin is a plugin for the installer's tests that hangs: its
// processor com.example.test.HangOnMarker passes records through, marking
// each with hang_checked, but never returns from a batch that holds a
// record whose record_value contains the marker (property hang.marker).
// Weir must time the call out, fail the batch into error records, kill the
// process and restart it.
package main

import (
	"context"
	"strings"

	"github.com/weir-streams/weir/sdk"
)

func main() {
	sdk.Serve(sdk.ProcessorSpec{
		Name:    "com.example.test.HangOnMarker",
		Summary: "Test processor: hangs on a batch holding the marker.",
		Properties: []sdk.Property{
			{Key: "hang.marker", Description: "Text whose presence in record_value hangs the batch.", Required: true, Validator: sdk.NonEmpty()},
		},
		New: func(conf sdk.Config, _ sdk.Env) (sdk.Processor, error) {
			return hang(conf.String("hang.marker")), nil
		},
	})
}

type hang string

func (h hang) Process(ctx context.Context, b *sdk.Batch) error {
	for _, r := range b.Records {
		if v, _ := r.GetString(sdk.FieldValue); strings.Contains(v, string(h)) {
			select {} // hung for good, as a plugin stuck in a deadlock is
		}
		r.SetString("hang_checked", "true")
	}
	return nil
}
