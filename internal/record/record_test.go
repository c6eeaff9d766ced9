package record_test

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/weir-streams/weir/internal/record"
)

func fieldNames(r *record.Record) []string {
	var out []string
	for _, f := range r.Fields() {
		out = append(out, f.Name)
	}
	return out
}

func TestNewMirrorsIDAndType(t *testing.T) {
	r := record.New("id-1", "apache_log", 1700000000000)
	if r.ID != "id-1" || r.Type != "apache_log" || r.CreationDate != 1700000000000 {
		t.Fatalf("record %v", r)
	}
	if got := fieldNames(r); !slices.Equal(got, []string{record.FieldID, record.FieldType}) {
		t.Errorf("fields %v, want record_id and record_type", got)
	}
	if v, _ := r.GetString(record.FieldID); v != "id-1" {
		t.Errorf("record_id %q", v)
	}
	r.SetID("id-2")
	r.SetType("other")
	if v, _ := r.GetString(record.FieldID); v != "id-2" || r.ID != "id-2" {
		t.Errorf("after SetID: ID %q, record_id %q", r.ID, v)
	}
	if v, _ := r.GetString(record.FieldType); v != "other" || r.Type != "other" {
		t.Errorf("after SetType: Type %q, record_type %q", r.Type, v)
	}
	if r.Len() != 2 {
		t.Errorf("SetID and SetType added fields: %v", fieldNames(r))
	}
}

func TestSetGetRemove(t *testing.T) {
	r := record.New("id", "t", 0)
	r.SetString("a", "1")
	r.Set("b", record.IntValue(2))
	r.Set("c", record.BoolValue(true))
	if got := fieldNames(r); !slices.Equal(got, []string{"record_id", "record_type", "a", "b", "c"}) {
		t.Fatalf("fields %v, want insertion order", got)
	}
	// Setting an existing field replaces it where it is.
	r.Set("a", record.FloatValue(1.5))
	if got := fieldNames(r); !slices.Equal(got, []string{"record_id", "record_type", "a", "b", "c"}) {
		t.Errorf("fields after replacing a: %v", got)
	}
	if v, ok := r.Get("a"); !ok || !v.Equal(record.FloatValue(1.5)) {
		t.Errorf("a = %v %v", v, ok)
	}
	// GetString renders other scalars as text.
	if s, ok := r.GetString("b"); !ok || s != "2" {
		t.Errorf("GetString(b) = %q %v", s, ok)
	}
	if _, ok := r.Get("missing"); ok || r.Has("missing") {
		t.Error("a missing field is found")
	}
	if s, ok := r.GetString("missing"); ok || s != "" {
		t.Errorf("GetString(missing) = %q %v", s, ok)
	}
	r.Remove("b")
	r.Remove("missing") // removing what is not there is not an error
	if got := fieldNames(r); !slices.Equal(got, []string{"record_id", "record_type", "a", "c"}) {
		t.Errorf("fields after Remove(b): %v", got)
	}
	if r.Has("b") {
		t.Error("b is still there")
	}
	r.Remove("c") // the last one
	r.Remove("record_id")
	if got := fieldNames(r); !slices.Equal(got, []string{"record_type", "a"}) {
		t.Errorf("fields after removing the first and last: %v", got)
	}
}

func TestAddErrorMirrorsRecordErrors(t *testing.T) {
	r := record.New("id", "t", 0)
	if r.HasErrors() || r.Has(record.FieldErrors) {
		t.Fatal("a new record has errors")
	}
	r.AddError(record.ErrRegexMatching, "no match")
	r.AddError(record.ErrRuntime, "boom")
	want := []string{"regex_matching_error: no match", "runtime_error: boom"}
	if !r.HasErrors() || !slices.Equal(r.Errors(), want) {
		t.Errorf("Errors() = %q, want %q", r.Errors(), want)
	}
	v, ok := r.Get(record.FieldErrors)
	if !ok || !v.Equal(record.StringsValue(want)) {
		t.Errorf("record_errors = %v, want %q", v.Text(), want)
	}
	// Decoders rebuild the error list from the field, so a record read back
	// from an error topic still counts as failed.
	d := record.New("id", "t", 0)
	d.SetFields(r.Fields())
	if !slices.Equal(d.Errors(), want) {
		t.Errorf("errors restored from record_errors: %q", d.Errors())
	}
}

func TestCloneIsIndependent(t *testing.T) {
	r := record.New("id", "t", 5)
	r.Origin = record.Origin{Topic: "raw", Partition: 2, Offset: 9, Index: 1}
	r.SetString("a", "1")
	r.AddError(record.ErrProcessing, "first")

	c := r.Clone()
	if c.ID != r.ID || c.Type != r.Type || c.CreationDate != r.CreationDate || c.Origin != r.Origin {
		t.Fatalf("clone %v of %v", c, r)
	}
	if c.String() != r.String() {
		t.Fatalf("clone renders %s, original %s", c, r)
	}
	c.SetString("a", "changed")
	c.SetString("new", "x")
	c.Remove("record_type")
	c.AddError(record.ErrProcessing, "second")
	if v, _ := r.GetString("a"); v != "1" {
		t.Errorf("changing the clone changed the original's a to %q", v)
	}
	if r.Has("new") || !r.Has("record_type") {
		t.Errorf("changing the clone changed the original's fields: %v", fieldNames(r))
	}
	if len(r.Errors()) != 1 || len(c.Errors()) != 2 {
		t.Errorf("errors: original %q, clone %q", r.Errors(), c.Errors())
	}
	if v, _ := r.Get(record.FieldErrors); !v.Equal(record.StringsValue([]string{"processing_error: first"})) {
		t.Errorf("original record_errors became %s", v.Text())
	}
}

func TestMarkSource(t *testing.T) {
	r := record.New("id", "t", 0)
	r.Origin = record.Origin{Topic: "raw", Partition: 3, Offset: 42}
	r.MarkSource("parser")
	for name, want := range map[string]record.Value{
		record.FieldErrorProcessor:  record.StringValue("parser"),
		record.FieldSourceTopic:     record.StringValue("raw"),
		record.FieldSourcePartition: record.IntValue(3),
		record.FieldSourceOffset:    record.IntValue(42),
	} {
		if v, ok := r.Get(name); !ok || !v.Equal(want) {
			t.Errorf("%s = %v %v, want %v", name, v.Text(), ok, want.Text())
		}
	}
	// Without a processor (undecodable input) no processor field is set.
	d := record.New("id", "t", 0)
	d.MarkSource("")
	if d.Has(record.FieldErrorProcessor) || !d.Has(record.FieldSourceOffset) {
		t.Errorf("fields %v", fieldNames(d))
	}
}

func TestRecordString(t *testing.T) {
	r := record.New("id", "t", 7)
	r.Set("n", record.IntValue(1))
	got := r.String()
	want := `Record{id=id type=t created=7 fields={"record_id":"id","record_type":"t","n":1}}`
	if got != want {
		t.Errorf("String() = %s, want %s", got, want)
	}
}

// TestSetGetRemoveModel checks Set, Get, Has and Remove against a plain
// model over names that share lengths and last bytes (so that their bits
// in the record's name set collide), across Init, SetFields and Clone.
func TestSetGetRemoveModel(t *testing.T) {
	names := []string{"", "a", "b", "ab", "ba", "xab", "yab", "record_type", "record_time", "http_status", "user_agent",
		"user_agenT", "bytes_out", "record_id", "src_ip", "identd", "c", "cc", "ccc", "cccc"}
	for i := range 60 {
		names = append(names, "f"+strconv.Itoa(i))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	recs := record.NewBatch(2)
	r := &recs[0]
	r.Init("id", "t", 0)
	var model []record.Field
	find := func(name string) int {
		for i := range model {
			if model[i].Name == name {
				return i
			}
		}
		return -1
	}
	model = append(model, record.Field{Name: record.FieldID, Value: record.StringValue("id")}, record.Field{Name: record.FieldType, Value: record.StringValue("t")})
	for step := range 20000 {
		name := names[rng.IntN(len(names))]
		switch op := rng.IntN(10); {
		case op < 6:
			v := record.IntValue(int64(step))
			if op < 3 {
				r.Set(name, v)
			} else {
				r.SetNamed(record.MakeName(name), v) // the same as Set
			}
			if i := find(name); i >= 0 {
				model[i].Value = v
			} else {
				model = append(model, record.Field{Name: name, Value: v})
			}
		case op < 8:
			r.Remove(name)
			if i := find(name); i >= 0 {
				model = append(model[:i], model[i+1:]...)
			}
		case op < 9:
			c := r.Clone()
			r = c
		default:
			fields := append([]record.Field(nil), model...)
			r.SetFields(fields)
		}
		for _, n := range names {
			got, ok := r.Get(n)
			i := find(n)
			if ok != (i >= 0) || ok && !got.Equal(model[i].Value) || r.Has(n) != ok {
				t.Fatalf("step %d: Get(%q) = %v, %v; model has it at %d", step, n, got, ok, i)
			}
		}
		if len(r.Fields()) != len(model) {
			t.Fatalf("step %d: %d fields, model %d", step, len(r.Fields()), len(model))
		}
		for i, f := range r.Fields() {
			if f.Name != model[i].Name {
				t.Fatalf("step %d: field %d is %q, model %q", step, i, f.Name, model[i].Name)
			}
		}
		if len(model) > 40 {
			r.Init("id", "t", 0)
			model = model[:0]
			model = append(model, record.Field{Name: record.FieldID, Value: record.StringValue("id")}, record.Field{Name: record.FieldType, Value: record.StringValue("t")})
		}
	}
}

// TestNewIsOneAllocation: New allocates the record and the storage of its
// first 16 fields together, and setting up to 16 fields allocates nothing
// more; the 17th moves the fields to a slice of their own, and every
// field keeps its value.
func TestNewIsOneAllocation(t *testing.T) {
	names := make([]string, 17)
	for i := range names {
		names[i] = "f" + strconv.Itoa(i)
	}
	allocs := testing.AllocsPerRun(100, func() {
		r := record.New("id", "t", 1)
		for _, n := range names[:14] { // 2 + 14 = 16 fields
			r.Set(n, record.IntValue(1))
		}
	})
	if allocs != 1 {
		t.Errorf("New and 16 fields: %v allocations, want 1", allocs)
	}
	r := record.New("id", "t", 1)
	for i, n := range names {
		r.Set(n, record.IntValue(int64(i)))
	}
	if r.Len() != 19 {
		t.Fatalf("%d fields, want 19", r.Len())
	}
	for i, n := range names {
		if v, _ := r.Get(n); !v.Equal(record.IntValue(int64(i))) {
			t.Errorf("%s = %v, want %d", n, v, i)
		}
	}
	if id, _ := r.GetString(record.FieldID); id != "id" {
		t.Errorf("record_id = %q", id)
	}
}

// TestHints: GetHint and SetHint find and set a field whatever the hint
// (right, wrong, out of range, negative), and return where it is.
func TestHints(t *testing.T) {
	r := record.New("id", "t", 0)
	r.SetString("a", "1")
	r.SetString("b", "2")
	for _, hint := range []int{-1, 0, 2, 3, 4, 99} {
		v, at, ok := r.GetHint("a", hint)
		if s, _ := v.AsString(); !ok || s != "1" || at != 2 {
			t.Errorf("GetHint(a, %d) = %v %d %v, want \"1\" at 2", hint, v, at, ok)
		}
		if _, at, ok := r.GetHint("zz", hint); ok || at != -1 {
			t.Errorf("GetHint(zz, %d) = %d %v, want absent", hint, at, ok)
		}
	}
	if at := r.SetHint("b", record.IntValue(3), 0); at != 3 {
		t.Errorf("SetHint(b) at %d, want 3", at)
	}
	if at := r.SetHint("b", record.IntValue(4), 3); at != 3 {
		t.Errorf("SetHint(b) with its position at %d, want 3", at)
	}
	if at := r.SetHint("c", record.IntValue(5), 3); at != 4 {
		t.Errorf("SetHint(c), a new field, at %d, want 4", at)
	}
	if got := fieldNames(r); !slices.Equal(got, []string{"record_id", "record_type", "a", "b", "c"}) {
		t.Errorf("fields %v", got)
	}
	if v, _ := r.Get("b"); !v.Equal(record.IntValue(4)) {
		t.Errorf("b = %v, want 4", v)
	}
	r.RemoveHint("b", 3)
	r.RemoveHint("a", 0)
	r.RemoveHint("zz", 1)
	if got := fieldNames(r); !slices.Equal(got, []string{"record_id", "record_type", "c"}) {
		t.Errorf("fields after RemoveHint of b (right hint) and a (wrong hint): %v", got)
	}
}
