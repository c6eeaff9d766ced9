package exepages

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

func TestParseMapping(t *testing.T) {
	const dev, ino = 0x802, 173521 // mkdev(8, 2)
	if got := mkdev(8, 2); got != dev {
		t.Fatalf("mkdev(8, 2) = %#x, want %#x", got, dev)
	}
	tests := []struct {
		name string
		line string
		want span
		ok   bool
	}{
		{"code", "00400000-00452000 r-xp 00000000 08:02 173521 /usr/bin/weir", span{0x400000, 0x452000}, true},
		{"read-only data", "00652000-00653000 r--p 00052000 08:02 173521 /usr/bin/weir", span{0x652000, 0x653000}, true},
		{"renamed while running", "00652000-00653000 r--p 00052000 08:02 173521 /usr/bin/weir (deleted)", span{0x652000, 0x653000}, true},
		{"writable data", "00653000-00654000 rw-p 00053000 08:02 173521 /usr/bin/weir", span{}, false},
		{"another file", "7f0000000000-7f0000001000 r-xp 00000000 08:02 999 /lib/libc.so.6", span{}, false},
		{"same inode, other device", "00400000-00452000 r-xp 00000000 08:03 173521 /mnt/weir", span{}, false},
		{"anonymous", "c000000000-c000400000 rw-p 00000000 00:00 0", span{}, false},
		{"short", "00400000-00452000 r-xp", span{}, false},
		{"bad range", "00452000-00400000 r-xp 00000000 08:02 173521 /usr/bin/weir", span{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := parseMapping(tt.line, dev, ino)
			if ok != tt.ok || got != tt.want {
				t.Errorf("parseMapping(%q) = %+v, %v; want %+v, %v", tt.line, got, ok, tt.want, tt.ok)
			}
		})
	}
}

// TestReleaseShrinksResidentSet runs Release in this test binary: the
// executable's resident pages must go down, and the code must still run
// (it is read back from the page cache).
func TestReleaseShrinksResidentSet(t *testing.T) {
	before := exeResidentKB(t)
	if before == 0 {
		t.Fatal("no resident page of the executable before the release")
	}
	n, err := Release()
	if err != nil {
		t.Fatalf("Release: %v", err)
	}
	if n <= 0 {
		t.Fatalf("Release advised %d bytes, want the executable's read-only mappings", n)
	}
	after := exeResidentKB(t)
	t.Logf("executable resident: %d kB before, %d kB after; %d bytes advised", before, after, n)
	if after >= before {
		t.Errorf("executable resident set %d kB after the release, not below %d kB before", after, before)
	}
	// Code and read-only data that were dropped still work.
	if got := strconv.Itoa(12345); got != "12345" {
		t.Errorf("strconv.Itoa after the release = %q", got)
	}
}

// exeResidentKB sums the Rss of the executable's read-only mappings in
// /proc/self/smaps.
func exeResidentKB(t *testing.T) int {
	t.Helper()
	st, err := os.Stat("/proc/self/exe")
	if err != nil {
		t.Fatal(err)
	}
	sys := st.Sys().(*syscall.Stat_t)
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	total, in := 0, false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if _, ok := parseMapping(line, uint64(sys.Dev), sys.Ino); ok {
			in = true
			continue
		}
		if k, v, ok := strings.Cut(line, ":"); ok && !strings.Contains(k, " ") {
			if in && k == "Rss" {
				kb, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
				if err != nil {
					t.Fatalf("smaps Rss %q: %v", v, err)
				}
				total += kb
			}
			continue
		}
		in = false // the header of another mapping
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return total
}
