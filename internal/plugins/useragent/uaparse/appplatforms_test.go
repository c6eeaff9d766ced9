package uaparse

import (
	"strings"
	"testing"
)

// TestAppPlatforms analyses "<App>/2.23.20.76 <letter>" for every row of
// tables/app_platforms.tsv: the app, its system and its device are the
// row's.
func TestAppPlatforms(t *testing.T) {
	a := New(Options{})
	for _, r := range loadTable("app_platforms.tsv", tableColumns["app_platforms.tsv"]) {
		app := strings.ToUpper(r[0][:1]) + r[0][1:]
		ua := app + "/2.23.20.76 " + r[1]
		got := a.Analyze(ua)
		want := map[string]string{
			"AgentClass": "Mobile App", "AgentVersionMajor": "2", "OperatingSystemName": r[2],
			"OperatingSystemClass": r[4], "DeviceClass": r[5], "DeviceName": r[7],
		}
		if r[3] != "-" {
			want["OperatingSystemVersion"] = r[3]
		}
		if r[6] != "-" {
			want["DeviceBrand"] = r[6]
		}
		for attr, w := range want {
			if g := got.Get(attr); g != w {
				t.Errorf("%q: %s = %q, want %q", ua, attr, g, w)
			}
		}
	}
}
