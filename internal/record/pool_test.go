package record

import "testing"

func TestBatchPoolReusesAndBounds(t *testing.T) {
	p := BatchPool{MaxRecords: 10}
	a := p.Get(8, 4)
	if len(a) != 8 || cap(a[0].fields) != 4 {
		t.Fatalf("new batch: %d records, field room %d; want 8 and 4", len(a), cap(a[0].fields))
	}
	a[0].Init("id-a", "t", 1)
	a[0].SetString("f", "old")
	p.Put(a, 4)
	b := p.Get(5, 4)
	if &b[0] != &a[0] {
		t.Fatal("a free batch large enough was not reused")
	}
	b[0].Init("id-b", "t", 2)
	if _, ok := b[0].Get("f"); ok || b[0].Len() != 2 || b[0].ID != "id-b" {
		t.Fatalf("reused record kept old state: %v", &b[0])
	}
	// Records that want more field room than the free batch has get a
	// new batch.
	p.Put(b, 4)
	if c := p.Get(5, 8); &c[0] == &a[0] {
		t.Fatal("a batch with too little field room was reused")
	}
	// The pool holds at most MaxRecords: a second batch of 8 takes the
	// place of the first.
	second := NewBatchFields(8, 4)
	p.Put(second, 4)
	if p.held != 8 || len(p.free) != 1 || &p.free[0].recs[0] != &second[0] {
		t.Fatalf("pool holds %d records in %d batches, want the second batch of 8 alone (MaxRecords 10)", p.held, len(p.free))
	}
	// A batch that does not fit takes the place of those put back longest
	// ago, whatever their size or field room.
	p = BatchPool{MaxRecords: 10}
	p.Put(NewBatchFields(3, 16), 16)
	p.Put(NewBatchFields(4, 2), 2)
	p.Put(NewBatchFields(5, 4), 4)
	if p.held != 9 || len(p.free) != 2 || cap(p.free[0].recs) != 4 || cap(p.free[1].recs) != 5 {
		t.Fatalf("pool holds %d records in %d batches, want the batches of 4 and 5", p.held, len(p.free))
	}
	p.Put(NewBatchFields(10, 4), 4)
	if p.held != 10 || len(p.free) != 1 || cap(p.free[0].recs) != 10 {
		t.Fatalf("pool holds %d records in %d batches, want the batch of 10 alone", p.held, len(p.free))
	}
	// A batch larger than MaxRecords is never kept.
	p.Put(NewBatchFields(11, 4), 4)
	if p.held != 10 || cap(p.free[0].recs) != 10 {
		t.Fatalf("pool holds %d records after a batch of 11, want the batch of 10", p.held)
	}
	var zero BatchPool
	zero.Put(NewBatchFields(1, 1), 1)
	if zero.held != 0 {
		t.Fatal("the zero pool kept a batch")
	}
}

func TestBatchPoolRecordsStayApart(t *testing.T) {
	var p BatchPool
	p.MaxRecords = 100
	recs := p.Get(2, 2)
	recs[0].Init("a", "t", 0) // record_id and record_type fill its room
	recs[1].Init("b", "t", 0)
	recs[0].SetString("x", "1") // grows record 0 beyond its share
	p.Put(recs, 2)
	again := p.Get(2, 2)
	again[1].Init("b2", "t", 0)
	again[0].Init("a2", "t", 0)
	again[0].SetString("x", "2")
	again[0].SetString("y", "3")
	if v, _ := again[1].GetString(FieldID); v != "b2" || again[1].Len() != 2 {
		t.Fatalf("record 1 overwritten by its neighbour: %v", &again[1])
	}
}
