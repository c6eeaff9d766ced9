package stream

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/weir-streams/weir/internal/record"
)

// ErrRouting is the error type of a record routed to a topic that does not
// exist while broker.topic.autoCreate is false.
const ErrRouting = "routing_error"

// topicRouter is implemented by processors that route records to topics of
// their own (record.FieldOutputTopic): the topics they know in advance are
// created, or checked, with the stream's at start.
type topicRouter interface {
	RoutedTopics() []string
}

// RoutedTopics returns the topics the chain's routers know in advance
// (`weir test` accepts expectations on them).
func (c *Chain) RoutedTopics() []string { return c.routedTopics() }

// routedTopics returns the topics the chain's routers know in advance.
func (c *Chain) routedTopics() []string {
	var out []string
	for _, st := range c.stages {
		if tr, ok := st.proc.(topicRouter); ok {
			out = append(out, tr.RoutedTopics()...)
		}
	}
	return out
}

// routes remembers which routed topics exist, so that the broker is asked
// about a topic once, not per record. Each known topic maps to a
// one-element slice that send takes as its topic list without allocating.
// A topic found missing is asked about again after missingRecheck, so that
// one created by an operator is picked up.
type routes struct {
	mu      sync.Mutex
	known   map[string][]string
	missing map[string]time.Time
}

const missingRecheck = 30 * time.Second

// outputTopics returns where r goes: the stream's output topics, or the
// topic a router set. A routed topic that does not exist and may not be
// created gives a reason instead, and the caller makes r an error record.
func (s *Stream) outputTopics(ctx context.Context, cl *kgo.Client, r *record.Record) ([]string, string) {
	t, routed := RoutedTopic(r)
	if !routed {
		return s.conf.Outputs, ""
	}
	s.routes.mu.Lock()
	topics, known := s.routes.known[t]
	checked, missing := s.routes.missing[t]
	s.routes.mu.Unlock()
	if known {
		return topics, ""
	}
	reason := fmt.Sprintf("output topic %q does not exist and broker.topic.autoCreate is false", t)
	if missing && time.Since(checked) < missingRecheck {
		return nil, reason
	}
	exists, err := s.ensureTopic(ctx, cl, t)
	// The maps outlive the poll: keep a copy of the name, not a substring
	// of the fetched batch a field value may share its bytes with.
	t = strings.Clone(t)
	if err != nil {
		return nil, fmt.Sprintf("output topic %q: %v", t, err)
	}
	if !exists {
		s.routes.mu.Lock()
		defer s.routes.mu.Unlock()
		if s.routes.missing == nil {
			s.routes.missing = map[string]time.Time{}
		}
		s.routes.missing[t] = time.Now()
		return nil, reason
	}
	return s.routes.remember(t), ""
}

// remember records that topic t exists and returns its one-element topic
// list.
func (r *routes) remember(t string) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.known == nil {
		r.known = map[string][]string{}
	}
	topics, ok := r.known[t]
	if !ok {
		topics = []string{t}
		r.known[t] = topics
	}
	delete(r.missing, t)
	return topics
}

// ensureTopic creates t when auto-create is on, and otherwise reports
// whether it exists.
func (s *Stream) ensureTopic(ctx context.Context, cl *kgo.Client, t string) (bool, error) {
	adm := kadm.NewClient(cl)
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	if s.conf.AutoCreate {
		resp, err := adm.CreateTopics(ctx, s.conf.Partitions, s.conf.Replication, s.topicConfigs(), t)
		if err != nil {
			return false, fmt.Errorf("create: %w", err)
		}
		for _, r := range resp.Sorted() {
			switch {
			case r.Err == nil:
				s.log.Info("created routed output topic", "topic", t)
			case !errors.Is(r.Err, kerr.TopicAlreadyExists):
				return false, fmt.Errorf("create: %w", r.Err)
			}
		}
		return true, nil
	}
	md, err := adm.ListTopics(ctx, t)
	if err != nil {
		return false, fmt.Errorf("list: %w", err)
	}
	d, ok := md[t]
	return ok && d.Err == nil, nil
}

// currentRoutedTopics returns the routed topics of the running chain.
func (s *Stream) currentRoutedTopics() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.chain.routedTopics()
}
