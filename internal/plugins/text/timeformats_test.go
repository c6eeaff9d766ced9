package text_test

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/plugins/text"
	"github.com/weir-streams/weir/internal/record"
)

// TestRecordTimeOfRealLines parses the timestamp of a real line of each
// format SplitText documents (testdata/timestamps) as record_time, through
// the processor, with the default zone.
func TestRecordTimeOfRealLines(t *testing.T) {
	data, err := os.ReadFile("testdata/timestamps/lines.tsv")
	if err != nil {
		t.Fatal(err)
	}
	rows := 0
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.SplitN(line, "\t", 4)
		if len(cols) != 4 {
			t.Fatalf("bad row %q", line)
		}
		rows++
		name, regex, want, raw := cols[0], cols[1], cols[2], cols[3]
		t.Run(name, func(t *testing.T) {
			p := newSplitTextConf(t, map[string]string{"value.regex": regex, "value.fields": "record_time"})
			r := record.New("id", "", 0)
			r.SetString(record.FieldValue, raw)
			b := component.Batch{Records: []*record.Record{r}}
			if err := p.Process(context.Background(), &b); err != nil {
				t.Fatal(err)
			}
			if errs := r.Errors(); len(errs) != 0 {
				t.Fatalf("errors %v", errs)
			}
			v, _ := r.Get("record_time")
			got, ok := v.AsInt()
			if !ok {
				t.Fatalf("record_time = %v, not an integer", v.Text())
			}
			if yearless, ok := strings.CutPrefix(want, "YEARLESS "); ok {
				gt := time.UnixMilli(got).UTC()
				if s := strconv.Itoa(int(gt.Month())) + " " + strconv.Itoa(gt.Day()) + " " + strconv.Itoa(gt.Hour()) + " " +
					strconv.Itoa(gt.Minute()) + " " + strconv.Itoa(gt.Second()); s != yearless {
					t.Errorf("record_time %v, want month day h m s %s", gt, yearless)
				}
				if now := time.Now(); gt.After(now.Add(25*time.Hour)) || gt.Before(now.AddDate(-1, 0, -2)) {
					t.Errorf("record_time %v of a line without a year is not within the year before now", gt)
				}
				return
			}
			w, err := strconv.ParseInt(want, 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			if got != w {
				t.Errorf("record_time = %d (%v), want %d (%v)", got, time.UnixMilli(got).UTC(), w, time.UnixMilli(w).UTC())
			}
		})
	}
	if rows < len(text.TimeFormats) {
		t.Errorf("%d rows for %d formats", rows, len(text.TimeFormats))
	}
}

func TestParseTimeZoneAndErrors(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	// nginx writes its error log in local time: the zone decides.
	got, err := text.ParseTime("2026/12/06 08:14:02", paris)
	if err != nil {
		t.Fatal(err)
	}
	if want := time.Date(2026, 12, 6, 7, 14, 2, 0, time.UTC).UnixMilli(); got != want {
		t.Errorf("nginx time in Paris = %d, want %d", got, want)
	}
	// A time with its own offset ignores the zone.
	if got, _ := text.ParseTime("2026-12-06T08:14:02Z", paris); got != time.Date(2026, 12, 6, 8, 14, 2, 0, time.UTC).UnixMilli() {
		t.Errorf("a time in Z was read in the zone: %d", got)
	}
	for _, bad := range []string{"yesterday", "2026-13-06T08:14:02Z", "06/Dec/2026", "12.5.3", ""} {
		_, err := text.ParseTime(bad, time.UTC)
		if err == nil {
			t.Errorf("ParseTime(%q) accepted", bad)
			continue
		}
		for _, want := range []string{"expected", "nginx error log, e.g. 2026/12/06 08:14:02", "epoch seconds"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q lacks %q", err, want)
			}
		}
	}
}
