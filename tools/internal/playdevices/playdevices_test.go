package playdevices

import (
	"path/filepath"
	"runtime"
	"testing"
)

// TestRead reads the list kept in testdata: tens of thousands of devices,
// four fields each, the header left out.
func TestRead(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	matches, err := filepath.Glob(filepath.Join(filepath.Dir(file), "../../../testdata/useragents/google-play-devices/*.gz"))
	if err != nil || len(matches) != 1 {
		t.Fatalf("device list: %v %v", matches, err)
	}
	records, err := Read(matches[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(records) < 40000 {
		t.Errorf("read %d devices, want more than 40,000", len(records))
	}
	if r := records[0]; len(r) != 4 || r[0] == "Retail Branding" {
		t.Errorf("first record %q: want a device, not the header", r)
	}
}

// TestDecodeUTF16 decodes both byte orders and refuses text without a
// byte order mark.
func TestDecodeUTF16(t *testing.T) {
	for _, c := range []struct {
		in   []byte
		want string
		ok   bool
	}{
		{[]byte{0xff, 0xfe, 'A', 0, 'b', 0}, "Ab", true},
		{[]byte{0xfe, 0xff, 0, 'A', 0, 'b'}, "Ab", true},
		{[]byte{'A', 0, 'b', 0}, "", false},
		{[]byte{0xff, 0xfe, 'A'}, "", false},
	} {
		got, err := decodeUTF16(c.in)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("decodeUTF16(% x) = %q, %v; want %q, ok %v", c.in, got, err, c.want, c.ok)
		}
	}
}

// TestFold keeps letters and digits only, in lower case.
func TestFold(t *testing.T) {
	for in, want := range map[string]string{"TCT (Alcatel)": "tctalcatel", "Barnes & Noble": "barnesnoble", "F-Plus": "fplus", "Škoda 1": "škoda1"} {
		if got := Fold(in); got != want {
			t.Errorf("Fold(%q) = %q, want %q", in, got, want)
		}
	}
}
