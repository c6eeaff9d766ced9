// Package exepages releases the pages of Weir's own executable that only
// start-up used.
//
// Starting a job runs the init functions of every linked package, parses
// and validates the job, builds its components and connects its clients.
// That touches code and read-only data scattered over the whole binary
// (about 50 MB, linked with MongoDB's and Kafka's clients, the embedded
// broker and the user-agent model), and the kernel maps the neighbours of
// each touched page too (fault-around, 64 KiB). On the sample job 24 MB of
// the binary was resident, a third of the process's RSS at full speed; a
// running stream reads back 12-14 MB of it after the release.
//
// Release drops every page of the executable's read-only mappings (code,
// read-only data, the function tables) from the process's resident set,
// once the job has started. They are clean pages of the file: the kernel
// reads them back from the page cache on the next access, so the pages a
// running job uses come back at once and the others stay out. Nothing
// changes in what the program does; a page's first access after the release
// costs a minor fault. Writable mappings (initialised variables) are never
// touched: dropping them would lose their contents.
package exepages
