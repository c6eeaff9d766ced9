package record

import "sync"

// BatchPool keeps batches of records (as NewBatchFields makes them) for
// reuse. The stream's record batches were a third of all the bytes it
// allocated (about 650 bytes a record, in 2-3 MB blocks that the runtime
// must zero), and the garbage collector ran that much more often.
//
// Contract: a batch is put back only when nothing refers to its records
// any more: every processor call and completion of the poll has returned,
// every record was serialized, and the poll did not fail (a failed poll may
// leave a sink holding records it has not written). Records of a batch
// from Get must be Init before use, as those of NewBatchFields.
//
// A free batch keeps the values its records last held until they are
// overwritten; MaxRecords bounds what the pool keeps, and with it that
// memory. BatchPool is safe for concurrent use; its zero value keeps
// nothing (MaxRecords 0).
type BatchPool struct {
	// MaxRecords is the most records the pool keeps between uses.
	MaxRecords int

	mu   sync.Mutex
	free []pooledBatch
	held int
}

type pooledBatch struct {
	recs      []Record
	perRecord int
}

// Get returns n records with room for perRecord fields each: a free batch
// large enough whose records have at least that room, or a new one.
func (p *BatchPool) Get(n, perRecord int) []Record {
	perRecord = max(perRecord, 1)
	p.mu.Lock()
	for i := len(p.free) - 1; i >= 0; i-- {
		b := p.free[i]
		if cap(b.recs) < n || b.perRecord < perRecord {
			continue
		}
		last := len(p.free) - 1
		p.free[i] = p.free[last]
		p.free[last] = pooledBatch{}
		p.free = p.free[:last]
		p.held -= cap(b.recs)
		p.mu.Unlock()
		return b.recs[:n]
	}
	p.mu.Unlock()
	return NewBatchFields(n, perRecord)
}

// Put gives back a batch from Get (or NewBatchFields) made with perRecord
// fields a record. A batch that would take the pool past MaxRecords takes
// the place of the batches put back longest ago; one larger than
// MaxRecords is left to the garbage collector. The pool so keeps what the
// latest polls used: batches kept first for good (the small ones of a
// stream's first polls, made with the default field room) left no room
// for a full poll's, and every poll allocated its records anew, 1 GB over
// the 2,000,000 records of the sample job, with 14 MB more peak RSS.
func (p *BatchPool) Put(recs []Record, perRecord int) {
	if cap(recs) == 0 || cap(recs) > p.MaxRecords {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	drop := 0
	for p.held+cap(recs) > p.MaxRecords {
		p.held -= cap(p.free[drop].recs)
		drop++
	}
	if drop > 0 {
		n := copy(p.free, p.free[drop:])
		clear(p.free[n:])
		p.free = p.free[:n]
	}
	p.held += cap(recs)
	p.free = append(p.free, pooledBatch{recs: recs[:cap(recs)], perRecord: max(perRecord, 1)})
}
