package cache

import (
	"bufio"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/record"
)

// CSVServiceName is the component identifier, LogIsland's.
const CSVServiceName = "pkg.service.cache.CSVKeyValueCacheService"

// csvSpace is the key space of the CSV rows in the service's LRU.
const csvSpace = "csv_row"

// CSV formats (LogIsland's csv.format values) and their delimiters.
var csvDelimiters = map[string]rune{"default": ',', "excel": ',', "excel_fr": ';', "mysql": '\t', "rfc4180": ',', "tdf": '\t'}

// CSVSpec declares CSVKeyValueCacheService.
func CSVSpec() component.Spec {
	return component.ServiceSpec(component.Spec{
		Name: CSVServiceName,
		Summary: "A key/value store of records loaded from a CSV file when the service is built: each row becomes a record of string " +
			"fields named by the header, stored under the value of its row.key column in an LRU of cache.size rows. Processors read it " +
			"as a datastore (the alerting processors' cache(\"key\")), and BulkPut writes records into it under their row.key field. " +
			"A row with fewer values than the header names, or without a key, stops the build with its line number; values past the header's columns are ignored, as LogIsland's CSV reader does.",
		Provides: component.DatastoreCapability,
		Properties: []component.Property{
			{Key: "csv.format", Description: "default, excel, rfc4180 (comma), excel_fr (semicolon), tdf (tab), mysql (tab, no quoting).", Default: "default", Example: "excel_fr",
				Validator: component.Enum("default", "excel", "excel_fr", "mysql", "rfc4180", "tdf")},
			{Key: "csv.header", Description: "Comma-separated column names, when the file has no header line.", Validator: component.List(component.NonEmpty)},
			{Key: "first.line.header", Description: "The file's first line names the columns.", Example: "true", Validator: component.Bool},
			{Key: "csv.file.path", Description: "Path of the CSV file.", Required: true, Example: "conf/timeseries-lookup.csv", Validator: component.NonEmpty},
			{Key: "csv.file.uri", Description: "LogIsland reads the file from HDFS with it; Weir reads local files only: use csv.file.path.",
				Validator: component.NewValidator("not supported: use csv.file.path", func(string) error {
					return errors.New("the CSV file is read from the local file system only: use csv.file.path")
				})},
			{Key: "row.key", Description: "Column whose value is each row's key.", Required: true, Example: "tagname", Validator: component.NonEmpty},
			{Key: KeySize, Description: "Rows kept at most; beyond it the least recently used row is evicted.", Default: fmt.Sprint(DefaultSize), Validator: component.IntRange(1, MaxSize)},
			{Key: "encoding.charset", Description: "Charset of the file: UTF-8, ISO-8859-1 or US-ASCII.", Default: "UTF-8", Example: "ISO-8859-1",
				Validator: component.Enum("UTF-8", "utf-8", "ISO-8859-1", "iso-8859-1", "US-ASCII", "us-ascii")},
		},
	}, newCSVService)
}

// CSVConfig is CSVKeyValueCacheService's configuration.
type CSVConfig struct {
	Format          string   `key:"csv.format"`
	Header          []string `key:"csv.header"`
	FirstLineHeader bool     `key:"first.line.header"`
	Path            string   `key:"csv.file.path"`
	// The URI is refused by its validator whenever it is given.
	_       struct{} `key:"csv.file.uri,ignored"`
	RowKey  string   `key:"row.key"`
	Size    int      `key:"cache.size"`
	Charset string   `key:"encoding.charset"`
}

// Validate asks for the columns' names from one place or the other.
func (c *CSVConfig) Validate() error {
	if len(c.Header) == 0 && !c.FirstLineHeader {
		return errors.New(`give the columns with "csv.header", or set "first.line.header" to true`)
	}
	return nil
}

// CSVService is the running CSVKeyValueCacheService; safe for concurrent use.
type CSVService struct {
	*LRUService
	rowKey string
}

func newCSVService(_ context.Context, conf *CSVConfig, env component.Env) (component.Service, error) {
	s := &CSVService{LRUService: NewLRUService(env, conf.Size, nil), rowKey: conf.RowKey}
	f, err := os.Open(conf.Path)
	if err != nil {
		return nil, fmt.Errorf("property %q: %w", "csv.file.path", err)
	}
	defer f.Close()
	n, err := s.load(f, conf)
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", conf.Path, err)
	}
	if env.Logger != nil {
		env.Logger.Info("CSV rows loaded", "file", conf.Path, "rows", n)
	}
	return s, nil
}

func (s *CSVService) load(r io.Reader, conf *CSVConfig) (int, error) {
	format := conf.Format
	var in io.Reader = bufio.NewReader(r)
	switch strings.ToUpper(conf.Charset) {
	case "ISO-8859-1":
		in = latin1Reader{in.(*bufio.Reader)}
	case "US-ASCII":
		in = asciiReader{in.(*bufio.Reader)}
	}
	cr := csv.NewReader(in)
	cr.Comma = csvDelimiters[format]
	cr.FieldsPerRecord = 0
	cr.LazyQuotes = format == "mysql"
	if format == "tdf" {
		cr.TrimLeadingSpace = true
	}
	header := conf.Header
	if len(header) == 0 {
		h, err := cr.Read()
		if err != nil {
			return 0, fmt.Errorf("read the header line: %w", err)
		}
		header = h
		for i := range header {
			header[i] = strings.TrimSpace(header[i])
		}
	}
	// Rows may hold more values than the header names (Commons CSV,
	// which LogIsland reads with, maps columns by position and ignores
	// the rest; LogIsland's own lookup file has such a row), not fewer.
	cr.FieldsPerRecord = -1
	keyCol := -1
	for i, h := range header {
		if h == s.rowKey {
			keyCol = i
		}
	}
	if keyCol < 0 {
		return 0, fmt.Errorf("the header %v has no column %q (row.key)", header, s.rowKey)
	}
	n := 0
	for {
		row, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return n, nil
		}
		if err != nil {
			return n, err
		}
		line, _ := cr.FieldPos(0)
		if len(row) < len(header) {
			return n, fmt.Errorf("line %d: %d values, the header names %d columns", line, len(row), len(header))
		}
		row = row[:len(header)]
		if strings.TrimSpace(row[keyCol]) == "" {
			return n, fmt.Errorf("line %d: no value in the key column %q", line, s.rowKey)
		}
		rec := record.New(row[keyCol], "csv_row", 0)
		for i, v := range row {
			rec.SetString(header[i], v)
		}
		s.Set(Key{Space: csvSpace, Name: row[keyCol]}, rec, 0)
		n++
	}
}

// GetRecord returns a copy of the row stored under key.
func (s *CSVService) GetRecord(_ context.Context, key string) (*record.Record, bool, error) {
	v, ok := s.Get(Key{Space: csvSpace, Name: key})
	if !ok {
		return nil, false, nil
	}
	return v.(*record.Record).Clone(), true, nil
}

// PutRecord stores a copy of r under its row.key field, or its id when it
// has none.
func (s *CSVService) PutRecord(_ context.Context, r *record.Record) error {
	key := r.ID
	if v, ok := r.Get(s.rowKey); ok && v.Text() != "" {
		key = v.Text()
	}
	s.Set(Key{Space: csvSpace, Name: key}, r.Clone(), 0)
	return nil
}

// RemoveRecord drops the row stored under key.
func (s *CSVService) RemoveRecord(_ context.Context, key string) error {
	if s.lru.Delete(Key{Space: csvSpace, Name: key}) {
		s.entries.Dec()
	}
	return nil
}

// Put implements component.Datastore: BulkPut stores records in memory.
func (s *CSVService) Put(ctx context.Context, recs []*record.Record) (component.Completion, error) {
	for _, r := range recs {
		if err := s.PutRecord(ctx, r); err != nil {
			return nil, err
		}
	}
	return doneCompletion{}, nil
}

type doneCompletion struct{}

func (doneCompletion) Wait(context.Context) ([]*record.Record, error) { return nil, nil }

// latin1Reader turns ISO-8859-1 bytes into UTF-8.
type latin1Reader struct{ r *bufio.Reader }

func (l latin1Reader) Read(p []byte) (int, error) {
	n := 0
	for n+utf8.UTFMax <= len(p) {
		b, err := l.r.ReadByte()
		if err != nil {
			if n > 0 {
				return n, nil
			}
			return 0, err
		}
		n += utf8.EncodeRune(p[n:], rune(b))
	}
	return n, nil
}

// asciiReader replaces bytes above 127 with U+FFFD.
type asciiReader struct{ r *bufio.Reader }

func (a asciiReader) Read(p []byte) (int, error) {
	n := 0
	for n+utf8.UTFMax <= len(p) {
		b, err := a.r.ReadByte()
		if err != nil {
			if n > 0 {
				return n, nil
			}
			return 0, err
		}
		if b < utf8.RuneSelf {
			p[n] = b
			n++
		} else {
			n += utf8.EncodeRune(p[n:], utf8.RuneError)
		}
	}
	return n, nil
}

var _ component.Datastore = (*CSVService)(nil)
