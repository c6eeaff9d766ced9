package stream

import (
	"context"
	"fmt"
	"sync"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/record"
)

// producer produces asynchronously and remembers the first failure.
type producer struct {
	cl      *kgo.Client
	ctx     context.Context
	slabs   *slabPool
	pending sync.WaitGroup
	mu      sync.Mutex
	err     error
	used    [][]byte // slabs taken from slabs, returned by recycle
}

// slabSize is the size of the buffers that serialized records are carved
// from: one allocation serves many records.
const slabSize = 64 << 10

// send serializes r once and produces it to every topic. It returns the slab
// to carve the next record from.
func (p *producer) send(slab []byte, r *record.Record, topics []string, ser component.Serializer) ([]byte, error) {
	if len(topics) == 0 {
		return slab, nil
	}
	if cap(slab)-len(slab) < 1024 {
		slab = p.newSlab()
	}
	start := len(slab)
	slab = append(slab, r.ID...)
	keyEnd := len(slab)
	slab, err := ser.Serialize(slab, r)
	if err != nil {
		return slab[:start], fmt.Errorf("serialize record %s: %w", r.ID, err)
	}
	key, value := slab[start:keyEnd:keyEnd], slab[keyEnd:len(slab):len(slab)]
	for _, t := range topics {
		p.pending.Add(1)
		p.cl.Produce(p.ctx, &kgo.Record{Topic: t, Key: key, Value: value}, p.done)
	}
	return slab, nil
}

// newSlab takes a slab from the pool and remembers it, to give it back
// once the poll is acknowledged.
func (p *producer) newSlab() []byte {
	slab := p.slabs.get()
	p.mu.Lock()
	p.used = append(p.used, slab)
	p.mu.Unlock()
	return slab
}

// recycle gives the slabs of this poll back to the pool. It must only be
// called after wait: the client reads a record's key and value until the
// record's promise has run. (A slab that append grew was never taken from
// the pool and is simply left to the garbage collector.)
func (p *producer) recycle() {
	p.mu.Lock()
	used := p.used
	p.used = nil
	p.mu.Unlock()
	p.slabs.put(used)
}

// slabPool keeps the serialization slabs of a stream from one poll to the
// next. Serialized records were the largest allocation of a poll (about
// 900 bytes a record in the sample job), and allocating them anew for
// every poll made the garbage collector run that much more often.
type slabPool struct {
	mu   sync.Mutex
	free [][]byte
}

// maxFreeSlabs bounds what the pool keeps between polls: 128 slabs of
// 64 KiB, enough for a full poll of 4,096 records of 2 KB.
const maxFreeSlabs = 128

func (sp *slabPool) get() []byte {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if n := len(sp.free); n > 0 {
		slab := sp.free[n-1]
		sp.free[n-1] = nil
		sp.free = sp.free[:n-1]
		return slab[:0]
	}
	return make([]byte, 0, slabSize)
}

func (sp *slabPool) put(slabs [][]byte) {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	for _, slab := range slabs {
		if len(sp.free) >= maxFreeSlabs {
			return
		}
		sp.free = append(sp.free, slab)
	}
}

func (p *producer) done(_ *kgo.Record, err error) {
	if err != nil {
		p.mu.Lock()
		if p.err == nil {
			p.err = fmt.Errorf("produce: %w", err)
		}
		p.mu.Unlock()
	}
	p.pending.Done()
}

func (p *producer) wait() error {
	p.pending.Wait()
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}
