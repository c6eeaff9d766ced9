package fields

import (
	"context"
	"errors"
	"fmt"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/expr"
	"github.com/weir-streams/weir/internal/record"
)

// RouteRecordsName is the component identifier. LogIsland has no routing
// processor; the name follows the others.
const RouteRecordsName = "pkg.processor.RouteRecords"

// ErrRoute is the error type of a record whose topic could not be
// computed or is not a valid topic name.
const ErrRoute = "routing_error"

// RouteRecordsSpec declares RouteRecords.
func RouteRecordsSpec() component.Spec {
	return component.ProcessorSpec(component.Spec{
		Name: RouteRecordsName,
		Summary: "Chooses each record's output topic: the text of output.topic.field, or the value of output.topic.expression, " +
			"or output.topic.default when those give nothing (a missing field, null, an empty string). The record then goes to that " +
			"one topic instead of the stream's broker.output.topics (error records still go to the error topics). Topics named in " +
			"advance (output.topic.default, constant expressions, output.topics.known) are created at start with the stream's when " +
			"broker.topic.autoCreate is true; other topics are created on first use. When autoCreate is false, a record routed to a " +
			"topic that does not exist becomes an error record (routing_error) naming the topic: it is not lost and the stream goes on.",
		Properties: []component.Property{
			{Key: "output.topic.field", Description: "Field whose text is the topic.", Example: "kafka_topic"},
			{Key: "output.topic.expression", Description: "Expression giving the topic (docs/expressions.md), with or without ${...}, e.g. http_status >= 500 ? \"logs_5xx\" : \"logs\". A constant topic is a string literal: \"all_logs\".",
				Validator: expressionValidator},
			{Key: "output.topic.default", Description: "Topic of records for which the field or expression gives nothing. Without it, such records go to the stream's output topics.",
				Validator: topicName},
			{Key: "output.topics.known", Description: "Comma-separated topics the field or expression may give, created (or checked) at start.",
				Validator: component.List(topicName)},
		},
	}, newRouteRecords)
}

// RouteRecordsConfig is RouteRecords' configuration.
type RouteRecordsConfig struct {
	Field         string   `key:"output.topic.field"`
	FieldSet      bool     `key:"output.topic.field,set"`
	Expression    string   `key:"output.topic.expression"`
	ExpressionSet bool     `key:"output.topic.expression,set"`
	Default       string   `key:"output.topic.default"`
	Known         []string `key:"output.topics.known"`
	prog          *expr.Program
	// known is every topic named in advance: a constant expression's,
	// the default and output.topics.known.
	known []string
}

// Validate asks for the field or the expression, compiles the expression,
// checks the topic of a constant one and gathers the topics known in
// advance.
func (c *RouteRecordsConfig) Validate() error {
	if c.FieldSet == c.ExpressionSet {
		return errors.New(`give exactly one of "output.topic.field" and "output.topic.expression"`)
	}
	c.known = nil
	if c.ExpressionSet {
		var err error
		if c.prog, err = compileExpression(c.Expression); err != nil {
			return fmt.Errorf("property \"output.topic.expression\": %w", err)
		}
		if k, ok := c.prog.Constant(); ok {
			if err := topicName.Validate(k.Text()); err != nil {
				return fmt.Errorf("property \"output.topic.expression\": %w", err)
			}
			c.known = append(c.known, k.Text())
		}
	}
	if c.Default != "" {
		c.known = append(c.known, c.Default)
	}
	c.known = append(c.known, c.Known...)
	return nil
}

// topicName accepts a Kafka topic name.
var topicName = component.NewValidator("Kafka topic name", checkTopic)

func checkTopic(s string) error {
	if s == "" || len(s) > 249 || s == "." || s == ".." {
		return fmt.Errorf("%q is not a valid topic name (1 to 249 characters, not . or ..)", s)
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '.' || c == '_' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return fmt.Errorf("topic name %q has the character %q; Kafka allows letters, digits, '.', '_' and '-'", s, c)
		}
	}
	return nil
}

// RouteRecords is the processor.
type RouteRecords struct {
	field   string
	prog    *expr.Program
	def     string
	known   []string
	routed  prometheus.Counter
	defHits prometheus.Counter
	bad     prometheus.Counter
}

func newRouteRecords(c *RouteRecordsConfig, env component.Env) (component.Processor, error) {
	p := &RouteRecords{field: c.Field, prog: c.prog, def: c.Default, known: c.known}
	const name, help = "route_records_total", "Records RouteRecords saw, by outcome: routed (by field or expression), default, failed."
	p.routed, p.defHits, p.bad = counter(env, name, help, "routed"), counter(env, name, help, "default"), counter(env, name, help, "failed")
	return p, nil
}

// RoutedTopics returns the topics known in advance; the stream creates or
// checks them at start.
func (p *RouteRecords) RoutedTopics() []string { return p.known }

// Process sets record_output_topic on every record.
func (p *RouteRecords) Process(_ context.Context, b *component.Batch) error {
	var routed, def, bad int
	// Most records of a batch go to the same few topics: a name checked
	// for the previous record is not checked again.
	checked := ""
	for _, r := range b.Records {
		var v record.Value
		if p.field != "" {
			v, _ = r.Get(p.field)
		} else {
			var err error
			if v, err = p.prog.Eval(r); err != nil {
				r.AddError(ErrRoute, fmt.Sprintf("output.topic.expression: %v", err))
				bad++
				continue
			}
		}
		t := ""
		if !v.IsNull() {
			if s, ok := v.AsString(); ok {
				t = s
			} else {
				t = v.Text()
			}
		}
		if t == "" {
			if p.def == "" {
				continue // the stream's output topics
			}
			t = p.def
			def++
		} else {
			if t != checked {
				if err := checkTopic(t); err != nil {
					r.AddError(ErrRoute, err.Error())
					bad++
					continue
				}
				checked = t
			}
			routed++
		}
		r.SetString(record.FieldOutputTopic, t)
	}
	count(p.routed, routed)
	count(p.defHits, def)
	count(p.bad, bad)
	return nil
}
