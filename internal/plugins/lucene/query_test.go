package lucene_test

import (
	"testing"

	"github.com/weir-streams/weir/internal/plugins/lucene"
	"github.com/weir-streams/weir/internal/record"
)

func TestQuerySyntax(t *testing.T) {
	r := rec("id", "message", "The quick brown Fox jumped over the lazy dog", "user_name", "tommy", "status", "error 404", "bytes_out", 5000, "ratio", 0.5)
	r.Set("flag", record.BoolValue(true))
	numeric := map[string]bool{"bytes_out": true, "ratio": true}
	for q, want := range map[string]bool{
		"message:fox":                       true,
		"message:FOX":                       true,
		"message:cat":                       false,
		`message:"brown fox"`:               true,
		`message:"fox brown"`:               false,
		`message:'bad exception'`:           false,
		"message:fox AND message:dog":       true,
		"message:fox AND message:cat":       false,
		"message:fox && message:cat":        false,
		"message:fox OR message:cat":        true,
		"message:cat || message:fox":        true,
		"message:fox -message:dog":          false,
		"message:fox NOT message:cat":       true,
		"message:fox !message:dog":          false,
		"+message:fox +message:cat":         false,
		"message:(cat OR dog)":              true,
		"message:(+cat +dog)":               false,
		"-message:cat":                      false, // a purely negative query matches nothing
		"*:*":                               true,
		"user_name:tom*":                    true,
		"user_name:t?mmy":                   true,
		"user_name:bob*":                    false,
		"message:*":                         true,
		"missing:*":                         false,
		"bytes_out:5000":                    true,
		"bytes_out:[1000 TO 5000]":          true,
		"bytes_out:[1000 TO 5000}":          false,
		"bytes_out:{5000 TO *]":             false,
		"bytes_out:[* TO 6000]":             true,
		"ratio:[0.1 TO 1]":                  true,
		"message:[a TO c]":                  true, // brown
		"message:[x TO z]":                  false,
		"status:error":                      true,
		"status:404":                        false, // digits are not words of a string field
		"flag:true":                         true,
		"message:fox^2 AND user_name:tommy": true,
		"fox":                               false, // the default field is "field"
		"message:the":                       false, // a stop word: no clause at all
		`message:quick\ brown`:              true,
		"(message:cat OR message:fox) AND user_name:tommy": true,
	} {
		query, err := lucene.Parse(q)
		if err != nil {
			t.Errorf("%s: %v", q, err)
			continue
		}
		if got := query.Match(lucene.NewDoc(r, numeric)); got != want {
			t.Errorf("%s: got %v, want %v", q, got, want)
		}
	}
}
