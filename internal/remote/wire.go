package remote

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/dataflow"
	"github.com/weir-streams/weir/internal/logisland"
)

// The wire types mirror the spec's REST structures with pointers for the
// required fields, so a missing field is told apart from an empty one.
// Unknown fields are refused: a misspelt "lastModifed" must not pass as a
// dataflow without a timestamp.
type wireProperty struct {
	Key   *string `json:"key"`
	Type  string  `json:"type"`
	Value *string `json:"value"`
}

type wireComponent struct {
	Name          *string        `json:"name"`
	Component     *string        `json:"component"`
	Documentation string         `json:"documentation"`
	Config        []wireProperty `json:"config"`
}

type wirePipeline struct {
	LastModified       *string         `json:"lastModified"`
	ModificationReason string          `json:"modificationReason"`
	Processors         []wireComponent `json:"processors"`
}

type wireStream struct {
	wireComponent
	Pipeline *wirePipeline `json:"pipeline"`
}

type wireDataFlow struct {
	LastModified       *string         `json:"lastModified"`
	ModificationReason string          `json:"modificationReason"`
	Services           []wireComponent `json:"services"`
	Streams            []wireStream    `json:"streams"`
}

// PropertyTypes are the accepted values of Property.type (compared without
// regard to case). The type is a declaration of the value's form that Weir
// checks; the value stays a string and the component's own property
// declaration gives it meaning. An absent or empty type is "string".
var PropertyTypes = []string{"string", "int", "long", "float", "double", "boolean"}

// checkType reports whether value has the form of type typ. Its errors do
// not quote the value, which may be a secret.
func checkType(typ, value string) error {
	switch strings.ToLower(typ) {
	case "", "string":
		return nil
	case "int":
		if _, err := strconv.ParseInt(strings.TrimSpace(value), 10, 32); err != nil {
			return errors.New("value is not an int (32-bit integer)")
		}
	case "long":
		if _, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64); err != nil {
			return errors.New("value is not a long (64-bit integer)")
		}
	case "float", "double":
		if _, err := strconv.ParseFloat(strings.TrimSpace(value), 64); err != nil {
			return fmt.Errorf("value is not a %s", strings.ToLower(typ))
		}
	case "boolean":
		if v := strings.ToLower(strings.TrimSpace(value)); v != "true" && v != "false" {
			return errors.New("value is not a boolean (true or false)")
		}
	default:
		return fmt.Errorf("type %q is not one of %s", typ, strings.Join(PropertyTypes, ", "))
	}
	return nil
}

// maxBody bounds the dataflow body read from the server.
const maxBody = 16 << 20

// Decode parses a DataFlow body. It refuses bodies that are not JSON, that
// hold unknown fields, that miss a required field, whose timestamps are not
// RFC 3339 date-times, or whose property types are unknown or do not fit
// their values; every problem is reported with its path. The component
// checks against the registry are left to the engine. LogIsland's names of
// the stream and its keys are mapped to Weir's, as in job files
// (internal/logisland); the keys Weir has no equivalent for are dropped.
func Decode(body []byte) (*dataflow.DataFlow, error) {
	df, _, err := decode(body)
	return df, err
}

// decode is Decode that also returns the paths of the LogIsland keys it
// dropped, for the client to log.
func decode(body []byte) (*dataflow.DataFlow, []string, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	var w wireDataFlow
	if err := dec.Decode(&w); err != nil {
		return nil, nil, fmt.Errorf("body is not a DataFlow JSON object: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, nil, errors.New("body is not a DataFlow JSON object: data after the object")
	}
	var probs component.Problems
	bad := func(path, format string, args ...any) {
		probs = append(probs, component.Problem{Path: path, Msg: fmt.Sprintf(format, args...)})
	}
	var ignored []string
	conv := func(w wireComponent, path string) dataflow.Component {
		c := convComponent(w, path, bad)
		res := logisland.Canonicalize(&c)
		for _, cl := range res.Clashes {
			bad(path+".config", "%s", cl.Message())
		}
		for _, m := range res.Misspelt {
			bad(path+".config", "%s", m.Message())
		}
		for _, p := range res.Ignored {
			ignored = append(ignored, fmt.Sprintf("%s.config[%s]", path, p.Key))
		}
		return c
	}
	df := &dataflow.DataFlow{ModificationReason: w.ModificationReason}
	df.LastModified = timestamp(w.LastModified, "lastModified", bad)
	for i, c := range w.Services {
		df.Services = append(df.Services, conv(c, itemPath("services", i, c.Name)))
	}
	for i, s := range w.Streams {
		path := itemPath("streams", i, s.Name)
		st := dataflow.Stream{Component: conv(s.wireComponent, path)}
		if s.Pipeline == nil {
			// A stream without a pipeline runs an empty chain, versioned
			// with the dataflow.
			st.Pipeline.LastModified = df.LastModified
		} else {
			st.Pipeline.LastModified = timestamp(s.Pipeline.LastModified, path+".pipeline.lastModified", bad)
			st.Pipeline.ModificationReason = s.Pipeline.ModificationReason
			for j, p := range s.Pipeline.Processors {
				st.Pipeline.Processors = append(st.Pipeline.Processors, conv(p, itemPath(path+".pipeline.processors", j, p.Name)))
			}
		}
		df.Streams = append(df.Streams, st)
	}
	if len(probs) > 0 {
		return nil, nil, fmt.Errorf("invalid dataflow: %w", probs)
	}
	return df, ignored, nil
}

func timestamp(s *string, path string, bad func(path, format string, args ...any)) time.Time {
	if s == nil {
		bad(path, "missing required field")
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339Nano, *s)
	if err != nil {
		bad(path, "%q is not an RFC 3339 date-time such as 2026-11-25T10:00:00Z", *s)
		return time.Time{}
	}
	return t
}

func convComponent(w wireComponent, path string, bad func(path, format string, args ...any)) dataflow.Component {
	var c dataflow.Component
	if w.Name == nil {
		bad(path+".name", "missing required field")
	} else {
		c.Name = *w.Name
	}
	if w.Component == nil {
		bad(path+".component", "missing required field")
	} else {
		c.Component = *w.Component
	}
	c.Documentation = w.Documentation
	for i, p := range w.Config {
		ppath := fmt.Sprintf("%s.config[%d]", path, i)
		if p.Key == nil || *p.Key == "" {
			bad(ppath+".key", "missing required field")
			continue
		}
		ppath = fmt.Sprintf("%s.config[%s]", path, *p.Key)
		if p.Value == nil {
			bad(ppath+".value", "missing required field")
			continue
		}
		if err := checkType(p.Type, *p.Value); err != nil {
			bad(ppath+".type", "%v", err)
			continue
		}
		c.Config = append(c.Config, dataflow.Property{Key: *p.Key, Type: p.Type, Value: *p.Value})
	}
	return c
}

// itemPath names a list item by its name, as the engine's validation does,
// or by its index when it has none.
func itemPath(list string, i int, name *string) string {
	if name != nil && *name != "" {
		return fmt.Sprintf("%s[%s]", list, *name)
	}
	return fmt.Sprintf("%s[%d]", list, i)
}
