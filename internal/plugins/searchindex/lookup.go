package searchindex

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/weir-streams/weir/internal/component"
)

// GetRequest asks for documents of one index by id.
type GetRequest struct {
	Index string
	IDs   []string
}

// Document is a document found by MultiGet: its index, id and source.
// Source values are as JSON decodes them, numbers as json.Number.
type Document struct {
	Index  string
	ID     string
	Source map[string]any
}

// Getter is what the enrichment processors (MultiGetElasticsearch,
// EnrichRecordsElasticsearch) need of their service: *Service.
type Getter interface {
	component.Service
	MultiGet(ctx context.Context, reqs []GetRequest) ([]Document, error)
}

// maxLookupAnswer bounds the answer of one lookup request: documents of
// reference data are small, and a runaway answer must not take the memory.
const maxLookupAnswer = 64 << 20

// MultiGet fetches documents by id. It sends one `_search` request with an
// `ids` query per index, which Elasticsearch, OpenSearch and ZincSearch all
// serve (ZincSearch has no `_mget`). Search reads what the index has
// refreshed, about a second behind the last write by default; enrichment
// reads reference data that is written long before. An index that does not
// exist holds no document; any other failure is returned.
func (s *Service) MultiGet(ctx context.Context, reqs []GetRequest) ([]Document, error) {
	var out []Document
	for _, r := range reqs {
		if len(r.IDs) == 0 {
			continue
		}
		docs, err := s.lookup(ctx, r)
		if err != nil {
			return nil, err
		}
		out = append(out, docs...)
	}
	return out, nil
}

func (s *Service) lookup(ctx context.Context, r GetRequest) ([]Document, error) {
	body, err := json.Marshal(map[string]any{
		"query": map[string]any{"ids": map[string]any{"values": r.IDs}},
		"size":  len(r.IDs),
	})
	if err != nil {
		return nil, fmt.Errorf("encode the lookup of index %q: %w", r.Index, err)
	}
	ctx, cancel := context.WithTimeout(ctx, s.lookupTimeout)
	defer cancel()
	c := s.w.cfg.client
	var last error
	for _, host := range c.hosts {
		docs, err := s.search(ctx, c, host, r.Index, body)
		if err == nil {
			return docs, nil
		}
		last = err
		var re *requestError
		if ctx.Err() != nil || !errors.As(err, &re) || !re.failover() {
			break
		}
	}
	return nil, fmt.Errorf("look up %d ids in index %q: %w", len(r.IDs), r.Index, last)
}

func (s *Service) search(ctx context.Context, c *client, host, index string, body []byte) ([]Document, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, host+"/"+url.PathEscape(index)+"/_search", bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("search request to %s: %w", host, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	c.authorize(req)
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, &requestError{host: host, err: err}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxLookupAnswer))
	if err != nil {
		return nil, &requestError{host: host, err: fmt.Errorf("read the answer: %w", err)}
	}
	if resp.StatusCode != http.StatusOK {
		if missingIndex(resp.StatusCode, data) {
			return nil, nil
		}
		msg := data
		if len(msg) > maxErrorBody {
			msg = msg[:maxErrorBody]
		}
		return nil, &requestError{host: host, status: resp.StatusCode, retryAfter: retryAfter(resp.Header.Get("Retry-After")), msg: string(msg)}
	}
	var ans struct {
		Hits struct {
			Hits []struct {
				Index  string          `json:"_index"`
				ID     string          `json:"_id"`
				Source json.RawMessage `json:"_source"`
			} `json:"hits"`
		} `json:"hits"`
	}
	if err := json.Unmarshal(data, &ans); err != nil {
		return nil, &requestError{host: host, err: fmt.Errorf("read the answer: %w", err)}
	}
	docs := make([]Document, 0, len(ans.Hits.Hits))
	for _, h := range ans.Hits.Hits {
		d := Document{Index: h.Index, ID: h.ID}
		if d.Index == "" {
			d.Index = index
		}
		if len(h.Source) > 0 {
			dec := json.NewDecoder(bytes.NewReader(h.Source))
			dec.UseNumber()
			if err := dec.Decode(&d.Source); err != nil {
				return nil, &requestError{host: host, err: fmt.Errorf("read the source of document %q: %w", h.ID, err)}
			}
		}
		docs = append(docs, d)
	}
	return docs, nil
}

// missingIndex reports whether an error answer says the index does not
// exist: Elasticsearch and OpenSearch answer 404 index_not_found_exception,
// ZincSearch 400 "index ... does not exists".
func missingIndex(status int, body []byte) bool {
	s := string(body)
	switch status {
	case http.StatusNotFound:
		return strings.Contains(s, "index_not_found")
	case http.StatusBadRequest:
		return strings.Contains(s, "does not exist") || strings.Contains(s, "index_not_found")
	}
	return false
}
