package fields_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"sync"
	"testing"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/plugins/fields"
	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/streamtest"
)

// key is the HMAC key of the tests, and mac the token MaskFields must give
// s under it, computed with the standard library as a reader would.
const key = "0123456789abcdef-secret"

func mac(s string) string {
	m := hmac.New(sha256.New, []byte(key))
	m.Write([]byte(s))
	return hex.EncodeToString(m.Sum(nil))
}

func TestMaskFields(t *testing.T) {
	for _, tt := range []struct {
		name  string
		props map[string]string
		in    []any
		want  string
	}{
		{"ipv4 /24", map[string]string{"truncate.ip.fields": "src_ip"}, []any{"src_ip", "83.149.9.216"}, `src_ip="83.149.9.0"`},
		{"ipv6 /48", map[string]string{"truncate.ip.fields": "src_ip"}, []any{"src_ip", "2001:db8:abcd:12:1::5"}, `src_ip="2001:db8:abcd::"`},
		{"mapped ipv4", map[string]string{"truncate.ip.fields": "src_ip"}, []any{"src_ip", "::ffff:83.149.9.216"}, `src_ip="83.149.9.0"`},
		{"other prefix", map[string]string{"truncate.ip.fields": "src_ip", "ipv4.prefix.length": "16"}, []any{"src_ip", "83.149.9.216"}, `src_ip="83.149.0.0"`},
		{"hash", map[string]string{"hash.fields": "user,age", "hash.key": key}, []any{"user", "frank", "age", 42},
			`user="` + mac("frank") + `" age="` + mac("42") + `"`},
		{"not an address without key is removed", map[string]string{"truncate.ip.fields": "src_ip"}, []any{"src_ip", "host.example"}, ``},
		{"not an address with key is hashed", map[string]string{"truncate.ip.fields": "src_ip", "hash.key": key}, []any{"src_ip", "host.example"}, `src_ip="` + mac("host.example") + `"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, _ := build(t, fields.MaskFieldsSpec(), tt.props)
			out := process(t, p, rec(tt.in...))
			if got := userFields(out[0]); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
	if msg := buildErr(t, fields.MaskFieldsSpec(), map[string]string{"hash.fields": "a"}); !strings.Contains(msg, "hash.key") {
		t.Errorf("error = %s", msg)
	}
	if msg := buildErr(t, fields.MaskFieldsSpec(), map[string]string{"hash.fields": "a", "hash.key": "short"}); strings.Contains(msg, "short") {
		t.Errorf("the error shows the key: %s", msg)
	}
}

// TestMaskFieldsRepeatedValues masks batches whose consecutive records
// repeat and change values (the processor reuses the previous record's
// mask), twice (the keyed hasher is reused): every record gets the mask
// of its own value.
func TestMaskFieldsRepeatedValues(t *testing.T) {
	p, _ := build(t, fields.MaskFieldsSpec(), map[string]string{"truncate.ip.fields": "src_ip", "hash.fields": "user", "hash.key": key})
	type in struct {
		ip   string
		user any
	}
	ins := []in{{"83.149.9.216", "frank"}, {"83.149.9.216", "frank"}, {"10.1.2.3", "frank"}, {"83.149.9.1", 5},
		{"host.example", "5"}, {"host.example", "anna"}, {"83.149.9.216", "anna"}, {"2001:db8:abcd:12::1", "frank"}}
	want := []string{
		`src_ip="83.149.9.0" user="` + mac("frank") + `"`, `src_ip="83.149.9.0" user="` + mac("frank") + `"`,
		`src_ip="10.1.2.0" user="` + mac("frank") + `"`, `src_ip="83.149.9.0" user="` + mac("5") + `"`,
		`src_ip="` + mac("host.example") + `" user="` + mac("5") + `"`, `src_ip="` + mac("host.example") + `" user="` + mac("anna") + `"`,
		`src_ip="83.149.9.0" user="` + mac("anna") + `"`, `src_ip="2001:db8:abcd::" user="` + mac("frank") + `"`,
	}
	for pass := 0; pass < 2; pass++ {
		var recs []*record.Record
		for _, x := range ins {
			recs = append(recs, rec("src_ip", x.ip, "user", x.user))
		}
		for i, r := range process(t, p, recs...) {
			if got := userFields(r); got != want[i] {
				t.Errorf("pass %d, record %d: got %s, want %s", pass, i, got, want[i])
			}
		}
	}
}

// TestMaskFieldsCache masks the src_ip and http_query fields of the real
// access log with the token cache at its default size, at one slot (every
// other value evicts the previous one) and off, on four goroutines at once
// (partitions share the cache): every record must get the HMAC of its own
// values, and the cache counters must add up to the values hashed.
func TestMaskFieldsCache(t *testing.T) {
	long := strings.Repeat("/very-long-path", 20) // 300 bytes: never cached
	log := streamtest.AccessLogRecords(t)
	for _, size := range []string{"", "1", "0"} {
		t.Run("size "+size, func(t *testing.T) {
			props := map[string]string{"hash.fields": "src_ip,http_query", "hash.key": key}
			if size != "" {
				props["hash.cache.size"] = size
			}
			p, reg := build(t, fields.MaskFieldsSpec(), props)
			const workers = 4
			type job struct {
				recs []*record.Record
				want [][2]string
			}
			var jobs []job
			for w := 0; w < workers; w++ {
				recs := make([]*record.Record, len(log))
				for i, r := range log {
					recs[i] = r.Clone()
				}
				recs[w].SetString("http_query", long)
				want := make([][2]string, len(recs))
				for i, r := range recs {
					ip, _ := r.GetString("src_ip")
					q, _ := r.GetString("http_query")
					want[i] = [2]string{mac(ip), mac(q)}
				}
				jobs = append(jobs, job{recs, want})
			}
			var wg sync.WaitGroup
			for _, j := range jobs {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for start := 0; start < len(j.recs); start += 500 {
						b := &component.Batch{Records: j.recs[start:min(start+500, len(j.recs))]}
						if err := p.Process(context.Background(), b); err != nil {
							t.Errorf("process: %v", err)
							return
						}
					}
					for i, r := range j.recs {
						ip, _ := r.GetString("src_ip")
						q, _ := r.GetString("http_query")
						if ip != j.want[i][0] || q != j.want[i][1] {
							t.Errorf("record %d: src_ip %s http_query %s, want %s %s", i, ip, q, j.want[i][0], j.want[i][1])
							return
						}
					}
				}()
			}
			wg.Wait()
			hashed := metric(t, reg, "mask_fields_total", "hashed")
			hit, miss := metric(t, reg, "mask_fields_cache_total", "hit"), metric(t, reg, "mask_fields_cache_total", "miss")
			t.Logf("%v values hashed, cache %v hits, %v misses", hashed, hit, miss)
			if hashed != 2*workers*10000 {
				t.Errorf("hashed %v values, want %d", hashed, 2*workers*10000)
			}
			switch size {
			case "0":
				if hit+miss != 0 {
					t.Errorf("cache off, but %v hits and %v misses", hit, miss)
				}
			default:
				// The memo of the previous record's value answers
				// first; the long values bypass the cache.
				if hit+miss == 0 || hit+miss > hashed-workers {
					t.Errorf("%v hits + %v misses for %v values hashed", hit, miss, hashed)
				}
				if size == "" && hit < 0.8*(hit+miss) {
					t.Errorf("default size: %v hits of %v lookups, want at least 80 %% on the real log", hit, hit+miss)
				}
			}
		})
	}
}

// TestMaskFieldsTokenPaths masks batches that take each of the ways
// hashJobs hands out tokens, and checks every token against crypto/hmac:
// with the cache off (every token written straight into the batch's one
// string), with the cache on and every value too long to be cached (the
// same way), and with the cache on and cached and uncached values mixed
// (tokens copied, cached ones with their own allocation). The records
// change their field order from one to the next, so the position hints
// are wrong half of the time, and two fields are hashed.
func TestMaskFieldsTokenPaths(t *testing.T) {
	long := func(i int) string {
		return strings.Repeat("/long-path-segment", 16) + "?n=" + strings.Repeat("x", i%70)
	} // 291 bytes or more
	short := func(i int) string { return "/p/" + strings.Repeat("y", i%90) }
	for _, tc := range []struct {
		name  string
		size  string
		value func(i int) string
	}{
		{"cache off", "0", func(i int) string { return short(i) }},
		{"cache on, all too long", "4096", long},
		{"cache on, mixed", "4096", func(i int) string {
			if i%3 == 0 {
				return long(i)
			}
			return short(i)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, _ := build(t, fields.MaskFieldsSpec(), map[string]string{"hash.fields": "http_query,user", "hash.key": key, "hash.cache.size": tc.size})
			for pass := 0; pass < 2; pass++ {
				var recs []*record.Record
				for i := 0; i < 300; i++ {
					q, u := tc.value(i), tc.value(i/2+7)
					if i%2 == 0 {
						recs = append(recs, rec("http_query", q, "user", u))
					} else {
						recs = append(recs, rec("user", u, "extra", "e", "http_query", q))
					}
				}
				out := process(t, p, recs...)
				for i, r := range out {
					q, _ := r.GetString("http_query")
					u, _ := r.GetString("user")
					if want := mac(tc.value(i)); q != want {
						t.Fatalf("pass %d, record %d: http_query %s, want %s", pass, i, q, want)
					}
					if want := mac(tc.value(i/2 + 7)); u != want {
						t.Fatalf("pass %d, record %d: user %s, want %s", pass, i, u, want)
					}
				}
			}
		})
	}
}
