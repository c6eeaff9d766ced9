package fields_test

import (
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/plugins/fields"
)

func TestConvertSimpleDateFormatFields(t *testing.T) {
	ms := func(s string) int64 {
		tm, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			t.Fatal(err)
		}
		return tm.UnixMilli()
	}
	for _, tt := range []struct {
		format, zone, in string
		want             int64
	}{
		{"dd/MMM/yyyy:HH:mm:ss Z", "", "17/May/2015:10:05:03 +0000", ms("2015-05-17T10:05:03Z")},
		{"yyyy-MM-dd HH:mm:ss", "", "2015-05-17 12:05:03", ms("2015-05-17T12:05:03Z")},    // UTC by default
		{"yyyy-MM-dd HH:mm:ss", "CET", "2015-05-17 12:05:03", ms("2015-05-17T10:05:03Z")}, // LogIsland's default, summer time
		{"yyyy-MM-dd HH:mm:ss", "UTC", "2015-05-17 12:05:03", ms("2015-05-17T12:05:03Z")},
		{"yyyy-MM-dd'T'HH:mm:ss.SSSXXX", "", "2015-05-17T10:05:03.250+02:00", ms("2015-05-17T08:05:03.25Z")},
		{"EEE, d MMM yyyy hh:mm:ss a", "America/New_York", "Sun, 17 May 2015 01:05:03 PM", ms("2015-05-17T17:05:03Z")},
		{"yyyyMMddHHmmss", "+02:00", "20150517100503", ms("2015-05-17T08:05:03Z")},
		{"dd.MM.yy", "UTC", "17.05.15", ms("2015-05-17T00:00:00Z")},
	} {
		props := map[string]string{"input.date.format": tt.format, "event_time": "${date_raw}"}
		if tt.zone != "" {
			props["timezone"] = tt.zone
		}
		p, reg := build(t, fields.ConvertSimpleDateFormatFieldsSpec(), props)
		out := process(t, p, rec("date_raw", tt.in))
		v, ok := out[0].Get("event_time")
		if n, _ := v.AsInt(); !ok || n != tt.want {
			t.Errorf("%s %q: got %s, want %d (layout %v)", tt.format, tt.in, v, tt.want, must(fields.JavaDateLayout(tt.format)))
		}
		if metric(t, reg, "convert_date_total", "converted") != 1 {
			t.Errorf("%s: converted metric not 1", tt.format)
		}
	}
	p, reg := build(t, fields.ConvertSimpleDateFormatFieldsSpec(), map[string]string{"input.date.format": "yyyy-MM-dd", "d": "${date_raw}"})
	out := process(t, p, rec("date_raw", "yesterday"))
	if out[0].Has("d") || out[0].HasErrors() || metric(t, reg, "convert_date_total", "failed") != 1 {
		t.Errorf("an unparsable date: %s, errors %v", userFields(out[0]), out[0].Errors())
	}
	buildErr(t, fields.ConvertSimpleDateFormatFieldsSpec(), map[string]string{"input.date.format": "yyyy-ww", "d": "${x}"})
	buildErr(t, fields.ConvertSimpleDateFormatFieldsSpec(), map[string]string{"input.date.format": "yyyy", "timezone": "Mars/Base"})
}

func must(s string, err error) string {
	if err != nil {
		return err.Error()
	}
	return s
}
