package record

import "testing"

// BenchmarkAppendJSONStringLogLine measures string escaping on a real log
// line, the bulk of what the JSON serializer writes.
func BenchmarkAppendJSONStringLogLine(b *testing.B) {
	s := `83.149.9.216 - - [17/May/2015:10:05:03 +0000] "GET /presentations/logstash-monitorama-2013/images/kibana-search.png HTTP/1.1" 200 203023 "http://semicomplete.com/presentations/logstash-monitorama-2013/" "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_9_1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/32.0.1700.77 Safari/537.36"`
	var buf []byte
	b.SetBytes(int64(len(s)))
	for i := 0; i < b.N; i++ {
		buf = AppendJSONString(buf[:0], s)
	}
}
