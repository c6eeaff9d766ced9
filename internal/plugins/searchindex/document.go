package searchindex

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/record"
)

// Time-based index modes: the suffix .yyyy.MM.dd of the day the document
// is indexed (UTC), as LogIsland did.
const (
	TimeBasedNo        = "no"
	TimeBasedToday     = "today"
	TimeBasedYesterday = "yesterday"
)

// TimestampField is the document field that carries the record's time.
const TimestampField = "@timestamp"

// recordTimeField is the record field the timestamp comes from.
const recordTimeField = "record_time"

// IndexNameValidator accepts the index names Elasticsearch and OpenSearch
// accept.
var IndexNameValidator = component.NewValidator("index name (lower case, no \\/*?\"<>| ,#:, not starting with - _ +)", CheckIndexName)

// CheckIndexName applies the index naming rules of Elasticsearch and
// OpenSearch, so a bad name is refused before it fails every bulk item.
func CheckIndexName(s string) error {
	switch {
	case s == "":
		return fmt.Errorf("index name is empty")
	case s == "." || s == "..":
		return fmt.Errorf("index name %q is reserved", s)
	case len(s) > 255:
		return fmt.Errorf("index name is %d bytes, the limit is 255", len(s))
	case strings.ContainsAny(s[:1], "-_+"):
		return fmt.Errorf("index name %q starts with %q", s, s[:1])
	case strings.ToLower(s) != s:
		return fmt.Errorf("index name %q has upper-case letters", s)
	}
	if i := strings.IndexAny(s, "\\/*?\"<>| ,#:"); i >= 0 {
		return fmt.Errorf("index name %q contains %q", s, s[i:i+1])
	}
	return nil
}

// indexName resolves the index of r under target at time now.
func indexName(r *record.Record, t Target, now time.Time) (string, error) {
	name := t.Index
	if t.Field != "" {
		if v, ok := r.Get(t.Field); ok && !v.IsNull() {
			name = v.Text()
		}
	}
	if name == "" {
		return "", fmt.Errorf("no index for the document: set the index (the service's %s for BulkPut)", KeyServiceIndex)
	}
	switch t.TimeBased {
	case TimeBasedToday:
		name += now.UTC().Format(".2006.01.02")
	case TimeBasedYesterday:
		name += now.UTC().AddDate(0, 0, -1).Format(".2006.01.02")
	}
	if err := CheckIndexName(name); err != nil {
		return "", err
	}
	return name, nil
}

// SafeFieldName makes a record field name acceptable as a document field
// name: dots (which the index reads as object paths, so "a" and "a.b"
// would conflict) become underscores, a leading underscore (reserved for
// metadata fields such as _id and _source) gets an "f" before it, and an
// empty name becomes "empty".
func SafeFieldName(name string) string {
	if name == "" {
		return "empty"
	}
	if strings.IndexByte(name, '.') >= 0 {
		name = strings.ReplaceAll(name, ".", "_")
	}
	if name[0] == '_' {
		name = "f" + name
	}
	return name
}

// appendDocument appends the two NDJSON lines of one bulk "index" action:
// the action with the index and _id, then the source. The source holds
// @timestamp, from record_time (epoch milliseconds) or the record's
// creation date, then every field under its safe name; a name that two
// fields share once made safe gets a numeric suffix, because the index
// refuses a document with a duplicate key.
func appendDocument(dst []byte, r *record.Record, index string) []byte {
	dst = append(dst, `{"index":{"_index":`...)
	dst = record.AppendJSONString(dst, index)
	dst = append(dst, `,"_id":`...)
	dst = record.AppendJSONString(dst, r.ID)
	dst = append(dst, "}}\n{"...)

	fields := r.Fields()
	ms, hasTime := timestampOf(r)
	if hasTime {
		dst = append(dst, `"@timestamp":"`...)
		dst = time.UnixMilli(ms).UTC().AppendFormat(dst, "2006-01-02T15:04:05.000Z")
		dst = append(dst, '"')
	}
	var seen map[string]bool // only when a name needed changing
	wrote := hasTime
	for i := range fields {
		f := &fields[i]
		name := f.Name
		if hasTime && name == TimestampField {
			continue // replaced by the record's time
		}
		if safe := SafeFieldName(name); safe != name || seen != nil {
			if seen == nil {
				seen = make(map[string]bool, len(fields))
				for j := range fields[:i] {
					seen[SafeFieldName(fields[j].Name)] = true
				}
				seen[TimestampField] = hasTime
			}
			name = safe
			for n := 2; seen[name]; n++ {
				name = safe + "_" + strconv.Itoa(n)
			}
			seen[name] = true
		}
		if wrote {
			dst = append(dst, ',')
		}
		wrote = true
		dst = record.AppendJSONString(dst, name)
		dst = append(dst, ':')
		dst = record.AppendJSON(dst, f.Value)
	}
	return append(dst, "}\n"...)
}

// timestampOf returns the record's time in epoch milliseconds: record_time
// when it holds an integer (or a string of one), else the creation date.
func timestampOf(r *record.Record) (int64, bool) {
	if v, ok := r.Get(recordTimeField); ok {
		if n, ok := v.AsInt(); ok {
			return n, true
		}
		if f, ok := v.AsFloat(); ok {
			return int64(f), true
		}
		if s, ok := v.AsString(); ok {
			if n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64); err == nil {
				return n, true
			}
		}
	}
	if r.CreationDate > 0 {
		return r.CreationDate, true
	}
	return 0, false
}
