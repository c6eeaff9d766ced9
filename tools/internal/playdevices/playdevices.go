// Package playdevices reads Google Play's list of supported devices as it is
// kept in testdata (testdata/useragents/google-play-devices): the source of
// the user-agent analyzer's catalogue of Android models, and the evidence
// the model-prefix tool checks its rows against.
package playdevices

import (
	"compress/gzip"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode"
	"unicode/utf16"
)

// header is the list's first record.
const header = "Retail Branding,Marketing Name,Device,Model"

// Read returns the list's records (retail brand, marketing name, device,
// model) without its header. The file is Google's CSV, UTF-16 with a byte
// order mark, gzip compressed.
func Read(path string) ([][]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open device list: %w", err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("read device list: %w", err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("read device list: %w", err)
	}
	text, err := decodeUTF16(raw)
	if err != nil {
		return nil, err
	}
	r := csv.NewReader(strings.NewReader(text))
	r.FieldsPerRecord = 4
	records, err := r.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("parse device list: %w", err)
	}
	if len(records) == 0 || strings.Join(records[0], ",") != header {
		return nil, errors.New("device list: unexpected header")
	}
	return records[1:], nil
}

// decodeUTF16 decodes little- or big-endian UTF-16 with a byte order mark.
func decodeUTF16(b []byte) (string, error) {
	if len(b) < 2 || len(b)%2 != 0 {
		return "", errors.New("device list: not UTF-16")
	}
	little := b[0] == 0xff && b[1] == 0xfe
	if !little && !(b[0] == 0xfe && b[1] == 0xff) {
		return "", errors.New("device list: no UTF-16 byte order mark")
	}
	u := make([]uint16, 0, len(b)/2-1)
	for i := 2; i < len(b); i += 2 {
		if little {
			u = append(u, uint16(b[i])|uint16(b[i+1])<<8)
		} else {
			u = append(u, uint16(b[i])<<8|uint16(b[i+1]))
		}
	}
	return string(utf16.Decode(u)), nil
}

// Fold is a brand's letters and digits in lower case: the key by which the
// list's brand names and the analyzer's tables are compared.
func Fold(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}
