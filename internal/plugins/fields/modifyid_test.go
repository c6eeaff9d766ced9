package fields_test

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"regexp"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/weir-streams/weir/internal/plugins/fields"
	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/streamtest"
)

func TestModifyId(t *testing.T) {
	sum := sha256.Sum256([]byte("a1b2"))
	digest := hex.EncodeToString(sum[:])
	for _, tt := range []struct {
		name  string
		props map[string]string
		want  string
	}{
		{"hashFields", map[string]string{"id.generation.strategy": "hashFields", "fields.to.hash": "f1,f2"}, digest},
		{"fromFields", map[string]string{"id.generation.strategy": "fromFields", "fields.to.hash": "f1,f2", "java.formatter.string": "%2$s-%1$s-%%"}, "a2b2-a1b-%"},
		{"fromFields in order", map[string]string{"id.generation.strategy": "fromFields", "fields.to.hash": "f1,f2", "java.formatter.string": "%s/%s"}, "a1b/a2b2"},
		{"typetimehash", map[string]string{"id.generation.strategy": "typetimehash", "fields.to.hash": "f1,f2"}, "t-1000-" + digest},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, _ := build(t, fields.ModifyIdSpec(), tt.props)
			r := rec("f1", "a1", "f2", "b2", record.FieldTime, 1000)
			if tt.name == "fromFields" || tt.name == "fromFields in order" {
				r = rec("f1", "a1b", "f2", "a2b2")
			}
			out := process(t, p, r)
			if out[0].ID != tt.want {
				t.Errorf("id = %s, want %s", out[0].ID, tt.want)
			}
			if s, _ := out[0].GetString(record.FieldID); s != tt.want {
				t.Errorf("record_id = %s", s)
			}
		})
	}
	p, _ := build(t, fields.ModifyIdSpec(), map[string]string{})
	out := process(t, p, rec())
	if !regexp.MustCompile(`^[0-9a-f-]{36}$`).MatchString(out[0].ID) {
		t.Errorf("random id = %s", out[0].ID)
	}
	p, _ = build(t, fields.ModifyIdSpec(), map[string]string{"id.generation.strategy": "fromFields", "fields.to.hash": "f1", "java.formatter.string": "%s"})
	if out := process(t, p, rec()); !out[0].HasErrors() {
		t.Error("a missing field gave no error")
	}
	buildErr(t, fields.ModifyIdSpec(), map[string]string{"id.generation.strategy": "fromFields", "fields.to.hash": "f1", "java.formatter.string": "%2$s"})
	buildErr(t, fields.ModifyIdSpec(), map[string]string{"id.generation.strategy": "fromFields", "fields.to.hash": "f1", "java.formatter.string": "%5.2f"})
}

// TestModifyIdRandomUuid: the default strategy gives every record of
// every batch its own version 4 UUID, as google/uuid (a parser written
// apart from Weir's formatting) reads it: canonical lower-case text, the
// version and RFC 9562 variant bits set, record_id equal to the id, no two
// alike over three batches.
func TestModifyIdRandomUuid(t *testing.T) {
	p, _ := build(t, fields.ModifyIdSpec(), map[string]string{})
	seen := map[string]bool{}
	for _, n := range []int{1, 500, 999} {
		recs := make([]*record.Record, n)
		for i := range recs {
			recs[i] = rec("f1", "a1")
		}
		for _, r := range process(t, p, recs...) {
			u, err := uuid.Parse(r.ID)
			if err != nil {
				t.Fatalf("id %q: %v", r.ID, err)
			}
			if u.Version() != 4 || u.Variant() != uuid.RFC4122 || u.String() != r.ID {
				t.Fatalf("id %q: version %d, variant %v, canonical %q", r.ID, u.Version(), u.Variant(), u.String())
			}
			if s, _ := r.GetString(record.FieldID); s != r.ID {
				t.Fatalf("record_id %q, id %q", s, r.ID)
			}
			if seen[r.ID] {
				t.Fatalf("id %q given twice", r.ID)
			}
			seen[r.ID] = true
		}
	}
	if len(seen) != 1500 {
		t.Fatalf("%d ids, want 1500", len(seen))
	}
	// An empty batch is no error and no id.
	if out := process(t, p); len(out) != 0 {
		t.Fatalf("empty batch gave %d records", len(out))
	}
}

// TestModifyIdAlgorithms checks each digest, over a string and a number
// field, against the standard library's.
func TestModifyIdAlgorithms(t *testing.T) {
	text := []byte("GET200")
	for alg, want := range map[string]string{
		"MD5":     hex.EncodeToString(md5Sum(text)),
		"SHA-1":   hex.EncodeToString(sha1Sum(text)),
		"SHA-224": hex.EncodeToString(sha224Sum(text)),
		"SHA-256": hex.EncodeToString(sha256Sum(text)),
		"SHA-384": hex.EncodeToString(sha384Sum(text)),
		"SHA-512": hex.EncodeToString(sha512Sum(text)),
	} {
		p, _ := build(t, fields.ModifyIdSpec(), map[string]string{"id.generation.strategy": "hashFields", "fields.to.hash": "method,status,absent", "hash.algorithm": alg})
		out := process(t, p, rec("method", "GET", "status", 200), rec("method", "GET", "status", 200))
		for _, r := range out {
			if r.ID != want {
				t.Errorf("%s: id = %s, want %s", alg, r.ID, want)
			}
		}
	}
}

func md5Sum(b []byte) []byte    { s := md5.Sum(b); return s[:] }
func sha1Sum(b []byte) []byte   { s := sha1.Sum(b); return s[:] }
func sha224Sum(b []byte) []byte { s := sha256.Sum224(b); return s[:] }
func sha256Sum(b []byte) []byte { s := sha256.Sum256(b); return s[:] }
func sha384Sum(b []byte) []byte { s := sha512.Sum384(b); return s[:] }
func sha512Sum(b []byte) []byte { s := sha512.Sum512(b); return s[:] }

// TestModifyIdSHA256RealLog sets the ids of the real access log's records
// with SHA-256 (hashed two records at a time) in batches of an even and
// of an odd size, for hashFields and typetimehash: every id must be the
// crypto/sha256 digest of that record's own fields.
func TestModifyIdSHA256RealLog(t *testing.T) {
	log := streamtest.AccessLogRecords(t)
	fieldNames := []string{"src_ip", record.FieldTime, "http_query", "bytes_out"}
	for _, strategy := range []string{"hashFields", "typetimehash"} {
		for _, batch := range []int{500, 499, 1} {
			p, _ := build(t, fields.ModifyIdSpec(), map[string]string{"id.generation.strategy": strategy, "fields.to.hash": "src_ip,record_time,http_query,bytes_out"})
			recs := make([]*record.Record, len(log))
			want := make([]string, len(log))
			for i, r := range log {
				recs[i] = r.Clone()
				var text string
				for _, f := range fieldNames {
					if v, ok := r.Get(f); ok {
						text += v.Text()
					}
				}
				sum := sha256.Sum256([]byte(text))
				want[i] = hex.EncodeToString(sum[:])
				if strategy == "typetimehash" {
					tv, _ := r.Get(record.FieldTime)
					want[i] = r.Type + "-" + tv.Text() + "-" + want[i]
				}
			}
			for start := 0; start < len(recs); start += batch {
				process(t, p, recs[start:min(start+batch, len(recs))]...)
			}
			for i, r := range recs {
				if r.ID != want[i] {
					t.Fatalf("%s, batches of %d, record %d: id %s, want %s", strategy, batch, i, r.ID, want[i])
				}
				if s, _ := r.GetString(record.FieldID); s != want[i] {
					t.Fatalf("%s, batches of %d, record %d: record_id %s, want %s", strategy, batch, i, s, want[i])
				}
			}
		}
	}
}

// TestModifyIdUSASCII: with hash.charset US-ASCII (LogIsland's
// timeseries-parsing.yml sets it) each character outside ASCII is hashed
// as one '?', as Java's String.getBytes(US_ASCII) encodes it: a two-byte
// letter, a four-byte emoji and a byte that is not UTF-8 alike. Both the
// batched SHA-256 path and the one-by-one path of the other digests.
func TestModifyIdUSASCII(t *testing.T) {
	const text = "h\u00e9llo \U0001F600 x\xff"
	const java = "h?llo ? x?"
	for _, alg := range []string{"SHA-256", "MD5"} {
		p, _ := build(t, fields.ModifyIdSpec(), map[string]string{"id.generation.strategy": "hashFields", "hash.charset": "US-ASCII", "hash.algorithm": alg, "fields.to.hash": "f1,f2"})
		out := process(t, p, rec("f1", text, "f2", "\u00fc"), rec("f1", "plain"))
		var want0, want1 string
		if alg == "MD5" {
			s0, s1 := md5.Sum([]byte(java+"?")), md5.Sum([]byte("plain"))
			want0, want1 = hex.EncodeToString(s0[:]), hex.EncodeToString(s1[:])
		} else {
			s0, s1 := sha256.Sum256([]byte(java+"?")), sha256.Sum256([]byte("plain"))
			want0, want1 = hex.EncodeToString(s0[:]), hex.EncodeToString(s1[:])
		}
		if out[0].ID != want0 || out[1].ID != want1 {
			t.Errorf("%s: ids %s %s, want %s %s", alg, out[0].ID, out[1].ID, want0, want1)
		}
	}
	if msg := buildErr(t, fields.ModifyIdSpec(), map[string]string{"hash.charset": "EBCDIC"}); !strings.Contains(msg, "US-ASCII") {
		t.Errorf("an unknown charset: %s", msg)
	}
}
