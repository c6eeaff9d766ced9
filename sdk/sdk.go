// Package sdk is the public Go SDK for Weir processor plugins. A plugin is a
// program whose main calls Serve with one or more ProcessorSpec; Weir installs
// it with `weir -i group:artifact:version`, runs it as a subprocess and sends it
// whole batches of records.
//
// The contract is the built-in processors' contract:
//
//   - Process receives a batch: the records of one partition of one
//     micro-batch, in offset order. It may change records in place, replace
//     b.Records (to drop, split or add records) and mark a bad record with
//     Record.AddError: that record goes to the stream's error topics with
//     the reason, and skips the processors after this one. Records that
//     already carry errors are never passed in.
//   - A returned error fails the whole batch: every record of it becomes an
//     error record carrying the error, so nothing is lost.
//   - Calls for different partitions may run concurrently, so Process must
//     be safe for concurrent use.
//   - Properties are declared with their validators, so that `weir validate`
//     and `weir components` cover a plugin's keys as they cover built-in ones.
//
// A plugin must not write to standard output: it carries the handshake with
// Weir. Log with Env.Logger (standard error), which Weir merges into its log.
//
// See docs/plugins.md for how to build, sign, publish and install a plugin,
// and examples/plugins/urlrequest for a complete one.
package sdk

import (
	"context"
	"log/slog"

	"github.com/weir-streams/weir/internal/pluginrpc"
	"github.com/weir-streams/weir/internal/record"
)

// Record is a Weir record: id, type, creation date and typed fields. See
// its methods Get, GetString, Set, SetString, Remove, Fields and AddError.
type Record = record.Record

// Value is a typed field value.
type Value = record.Value

// Field is a named value of a record.
type Field = record.Field

// Field names every component agrees on.
const (
	FieldID     = record.FieldID
	FieldType   = record.FieldType
	FieldTime   = record.FieldTime
	FieldValue  = record.FieldValue
	FieldKey    = record.FieldKey
	FieldErrors = record.FieldErrors
)

// NewRecord returns a record with the given id, type and creation date
// (epoch milliseconds), for processors that add records and for tests.
func NewRecord(id, typ string, creationDate int64) *Record { return record.New(id, typ, creationDate) }

// StringValue returns a string value.
func StringValue(s string) Value { return record.StringValue(s) }

// IntValue returns an integer value.
func IntValue(n int64) Value { return record.IntValue(n) }

// FloatValue returns a floating-point value.
func FloatValue(f float64) Value { return record.FloatValue(f) }

// BoolValue returns a boolean value.
func BoolValue(b bool) Value { return record.BoolValue(b) }

// StringsValue returns an array of strings.
func StringsValue(ss []string) Value { return record.StringsValue(ss) }

// ArrayValue returns an array value.
func ArrayValue(a []Value) Value { return record.ArrayValue(a) }

// MapValue returns a map value.
func MapValue(m map[string]Value) Value { return record.MapValue(m) }

// Batch is what Process receives: the records of one partition.
type Batch struct {
	Topic     string
	Partition int32
	Records   []*Record
}

// Processor transforms batches. See the package documentation for the
// contract.
type Processor interface {
	Process(ctx context.Context, b *Batch) error
}

// Closer is implemented by processors that hold resources; Close is called
// once, when the stream stops or its pipeline is replaced.
type Closer interface {
	Close(ctx context.Context) error
}

// Env is what a processor is given when it is built.
type Env struct {
	// Name is the processor's name in the job, Stream its stream's.
	Name   string
	Stream string
	// Logger writes to standard error, which Weir merges into its log.
	Logger *slog.Logger
}

// ProcessorSpec declares one processor of a plugin.
type ProcessorSpec struct {
	// Name is the identifier used in job files. Use your own prefix (for
	// example com.example.processor.ParseThing): a plugin cannot take the
	// name of a built-in component or of another installed plugin's.
	Name string
	// Summary is the one-paragraph description `weir components` prints.
	Summary string
	// Properties are the declared keys, in documentation order.
	Properties []Property
	// DynamicProperties accepts keys that are not declared; they reach the
	// processor through Config.Dynamic.
	DynamicProperties bool
	// Check, when set, validates what single validators cannot (keys that
	// must agree). It runs in the plugin: `weir validate` starts the plugin
	// to run it and reports each error it returns (errors.Join for
	// several) with the job's other problems, and it applies again when
	// the processor is built, so a stream whose configuration it refuses
	// does not start. Its answer must depend on conf's values alone: Weir
	// remembers it per set of values for the life of the process and does
	// not start the plugin to ask again.
	Check func(conf Config) error
	// Reads, when set, returns the fields the processor reads, from its
	// configuration (for example the configured input field's name): Weir
	// then sends it only those fields of each record (with the record's
	// id, type, creation date and origin, and the technical fields
	// record_id, record_type and record_errors), which makes a call much
	// cheaper when records carry many fields. The fields it sets or
	// removes are applied to Weir's whole records, so the others pass
	// through unchanged; but the processor sees no other field (Get
	// reports it absent, a Clone lacks it). Nil (the default) sends every
	// field; a function returning no names sends none.
	Reads func(conf Config) []string
	// New builds a processor from its validated configuration.
	New func(conf Config, env Env) (Processor, error)
}

// Property declares one configuration key.
type Property struct {
	Key         string
	Description string
	Required    bool
	// Default is used when the key is absent; empty means none.
	Default string
	// Validator checks a value; nil accepts any string.
	Validator *Validator
	// Sensitive values (passwords) are never logged by Weir and are
	// redacted wherever it prints configuration.
	Sensitive bool
}

// Validator is a declarative check of a property value. Validators are
// values, not functions, because Weir checks a plugin's keys itself, from
// the declarations it recorded at install, without starting the plugin.
type Validator = pluginrpc.ValidatorDecl

// IntRange accepts integers from min to max.
func IntRange(min, max int64) *Validator {
	return &Validator{Kind: "int", Args: []string{itoa(min), itoa(max)}}
}

// Bool accepts true or false.
func Bool() *Validator { return &Validator{Kind: "bool"} }

// Enum accepts one of the given values, exactly.
func Enum(values ...string) *Validator { return &Validator{Kind: "enum", Args: values} }

// Regex accepts a regular expression in Go's RE2 syntax.
func Regex() *Validator { return &Validator{Kind: "regex"} }

// NonEmpty accepts any value that is not blank.
func NonEmpty() *Validator { return &Validator{Kind: "nonempty"} }

// URL accepts an absolute URL with one of the given schemes.
func URL(schemes ...string) *Validator { return &Validator{Kind: "url", Args: schemes} }

// List accepts a comma-separated list whose every item passes each (any
// non-empty item if each is nil).
func List(each *Validator) *Validator { return &Validator{Kind: "list", Each: each} }
