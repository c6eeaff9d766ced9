package uaparse

import (
	"bufio"
	"os"
	"testing"
)

func TestZZShow(t *testing.T) {
	a := New(Options{})
	f, _ := os.Open("/tmp/zz_uas.txt")
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		r := a.Analyze(sc.Text())
		t.Logf("%s | %s | %s | %s", r.Get("DeviceClass"), r.Get("DeviceBrand"), r.Get("DeviceName"), sc.Text()[:min(90, len(sc.Text()))])
	}
}
