// Package weir holds the files that ship inside the weir binary: the sample
// jobs and the real access log that `weir quickstart` feeds, so the
// quickstart works from any directory.
package weir

import "embed"

// Samples holds conf/*.yml and the bundled access log.
//
//go:embed conf/*.yml testdata/access-logs/apache_combined_10k.log testdata/access-logs/README.md
var Samples embed.FS
