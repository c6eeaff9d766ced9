package exepages

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// Release drops the resident pages of the executable's read-only
// mappings and returns how many bytes of address space it advised.
//
// The mappings are found in /proc/self/maps by the device and inode of
// /proc/self/exe, so a binary renamed or replaced on disk while it runs
// is still recognised.
func Release() (int64, error) {
	st, err := os.Stat("/proc/self/exe")
	if err != nil {
		return 0, fmt.Errorf("executable: %w", err)
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, fmt.Errorf("executable: no inode in %T", st.Sys())
	}
	f, err := os.Open("/proc/self/maps")
	if err != nil {
		return 0, fmt.Errorf("mappings: %w", err)
	}
	defer f.Close()
	spans, err := readOnlySpans(f, uint64(sys.Dev), sys.Ino)
	if err != nil {
		return 0, err
	}
	var advised int64
	for _, s := range spans {
		// syscall.Madvise takes a []byte; an address range read from
		// /proc/self/maps is not one Go may convert to a pointer.
		if _, _, e := syscall.Syscall(syscall.SYS_MADVISE, s.lo, s.hi-s.lo, syscall.MADV_DONTNEED); e != 0 {
			return advised, fmt.Errorf("madvise %#x-%#x: %w", s.lo, s.hi, e)
		}
		advised += int64(s.hi - s.lo)
	}
	return advised, nil
}

// span is one mapping of /proc/self/maps.
type span struct{ lo, hi uintptr }

// readOnlySpans returns the mappings of maps (in /proc/PID/maps form) that
// map the file with inode ino on device dev without write permission, as
// address ranges.
func readOnlySpans(maps io.Reader, dev, ino uint64) ([]span, error) {
	var out []span
	sc := bufio.NewScanner(maps)
	for sc.Scan() {
		s, ok := parseMapping(sc.Text(), dev, ino)
		if ok {
			out = append(out, s)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("mappings: %w", err)
	}
	return out, nil
}

// parseMapping reads one line of /proc/PID/maps:
//
//	address           perms offset  dev   inode   pathname
//	00400000-00452000 r-xp 00000000 08:02 173521  /usr/bin/weir
//
// and reports the span when it maps inode ino of device dev and is not
// writable.
func parseMapping(line string, dev, ino uint64) (span, bool) {
	f := strings.Fields(line)
	if len(f) < 5 || strings.Contains(f[1], "w") {
		return span{}, false
	}
	if n, err := strconv.ParseUint(f[4], 10, 64); err != nil || n != ino {
		return span{}, false
	}
	major, minor, ok := hexPair(f[3], ":")
	if !ok || mkdev(major, minor) != dev {
		return span{}, false
	}
	a, b, ok := hexPair(f[0], "-")
	if !ok || b <= a {
		return span{}, false
	}
	return span{uintptr(a), uintptr(b)}, true
}

// hexPair parses two hexadecimal numbers separated by sep, as the address
// range ("00400000-00452000") and the device ("08:02") of a mapping.
func hexPair(s, sep string) (a, b uint64, ok bool) {
	x, y, ok := strings.Cut(s, sep)
	if !ok {
		return 0, 0, false
	}
	a, err1 := strconv.ParseUint(x, 16, 64)
	b, err2 := strconv.ParseUint(y, 16, 64)
	return a, b, err1 == nil && err2 == nil
}

// mkdev encodes a device number as Linux's stat does (glibc's
// gnu_dev_makedev), to compare with Stat_t.Dev.
func mkdev(major, minor uint64) uint64 {
	return (major&0x00000fff)<<8 | (major&0xfffff000)<<32 | (minor & 0x000000ff) | (minor&0xffffff00)<<12
}
