package serialize_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"math"
	"testing"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/plugins/text"
	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/serialize"
	"github.com/weir-streams/weir/internal/streamtest"
)

// goldenEveryKind is the JSON of goldenRecord as the serializer wrote it
// before the encoder was made faster (commit 7e29337). The encoder may
// change; its output for the same record may not, since consumers and
// idempotent sinks compare messages byte for byte.
const goldenEveryKind = `{"id":"5a1c2d9e-0000-5000-8000-000000000001","type":"apache_log","creationDate":1700000000123,"fields":{"record_id":"5a1c2d9e-0000-5000-8000-000000000001","record_type":"apache_log","s":"GET /a?b=\"c\" \u2028 <html> é","i":-9223372036854775808,"i_max":9223372036854775807,"f":-12.375,"f_small":5e-324,"t":true,"nothing":null,"a":[1,"x",null,[]],"m":{"b":false,"n":{"deep":0.5}},"ctl":"a\u0000b\u001fc\td\ne\rf\\g\"h` + "\x7f" + `","bad":"x\ufffdy\ufffd\ufffd\ufffdz","ls":"\u2029\u2028","long":"0123456789abcdef0123456789abcdef\"0123456789abcdef0123456789abcdef\\","multi":"日本語テキスト、ユーザーエージェント","bytes":{"$base64":"AAEC/w=="},"e":"","f_inf":null,"f_big":1e+21,"record_errors":["regex_matching_error: line \"1\" does not match"]}}`

func goldenRecord() *record.Record {
	r := everyKind()
	r.SetString("ctl", "a\x00b\x1fc\td\ne\rf\\g\"h\x7f")
	r.SetString("bad", "x\xffy\xe2\x80\xc0z")
	r.SetString("ls", "\u2029\u2028")
	r.SetString("long", "0123456789abcdef0123456789abcdef\"0123456789abcdef0123456789abcdef\\")
	r.SetString("multi", "日本語テキスト、ユーザーエージェント")
	r.Set("bytes", record.BytesValue([]byte{0, 1, 2, 0xff}))
	r.SetString("e", "")
	r.Set("f_inf", record.FloatValue(math.Inf(1)))
	r.Set("f_big", record.FloatValue(1e21))
	r.AddError(record.ErrRegexMatching, `line "1" does not match`)
	return r
}

func TestJSONGoldenEveryKind(t *testing.T) {
	got, err := serialize.JSON{}.Serialize(nil, goldenRecord())
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != goldenEveryKind {
		t.Errorf("JSON changed:\n got %s\nwant %s", got, goldenEveryKind)
	}
}

// goldenAccessLogSHA256 is the SHA-256 of the JSON messages, one a line, of
// the 10,000 lines of the real access log parsed by SplitText with the
// spec's regex, as written before the encoder and the record layout were
// made faster (commit 7e29337).
const goldenAccessLogSHA256 = "2ba0bdd77af62f2005d80d484e9239cfc0ae3971d6bdfe139d311acc1f2d1d81"

func TestJSONGoldenAccessLog(t *testing.T) {
	spec := text.SplitTextSpec()
	conf, probs := component.NewConfig(&spec, map[string]string{
		"record.type": "apache_log", "value.regex": streamtest.ApacheRegex, "value.fields": streamtest.ApacheFields,
	})
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	p, err := spec.NewProcessor(conf, component.Env{Name: "parser"})
	if err != nil {
		t.Fatal(err)
	}
	var b component.Batch
	for i, line := range streamtest.AccessLogLines(t) {
		r := record.New(record.DeriveID("pipeline_raw", 0, int64(i), 0), "", 1700000000000+int64(i))
		r.SetString(record.FieldValue, line)
		b.Records = append(b.Records, r)
	}
	if err := p.Process(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	var buf []byte
	for _, r := range b.Records {
		if buf, err = (serialize.JSON{}).Serialize(buf[:0], r); err != nil {
			t.Fatal(err)
		}
		h.Write(append(buf, '\n'))
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != goldenAccessLogSHA256 {
		t.Errorf("JSON of the real access log changed: SHA-256 %s, want %s", got, goldenAccessLogSHA256)
	}
}
