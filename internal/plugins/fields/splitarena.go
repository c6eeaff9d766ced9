package fields

import "github.com/weir-streams/weir/internal/record"

// partsArena hands out the arrays of parts that SplitField makes for the
// records of one batch from a few large blocks, instead of one allocation
// per record: on access-log paths the allocation and the garbage
// collector's work for it were half of SplitField's cost.
//
// Each array is a capacity-limited slice of a block, so nothing appends
// into a neighbour's parts (record.ArrayValue keeps the slice, and AsArray
// returns it with its capacity cut to its length). A block lives as long
// as any record of the batch holds one of its arrays: the records of a
// batch are written and dropped together, so this keeps no more memory
// alive than the per-record arrays did, give or take the unused tail of
// the last block.
//
// An arena belongs to one Process call; its zero value is ready to use.
type partsArena struct {
	block []record.Value // len(block) values are handed out or being built
	from  int            // the parts being built are block[from:]
	// perRecord and left size the next block: the expected parts per
	// record times the records left in the batch.
	perRecord, left int
}

// add appends one part to the array being built.
func (a *partsArena) add(v record.Value) {
	if len(a.block) == cap(a.block) {
		a.grow()
	}
	a.block = append(a.block, v)
}

// grow starts a new block, sized for the rest of the batch, and moves the
// parts already built for the current record into it.
func (a *partsArena) grow() {
	built := a.block[a.from:]
	size := max(a.perRecord, 1)*max(a.left, 1) + len(built) + 4
	nb := make([]record.Value, len(built), size)
	copy(nb, built)
	a.block, a.from = nb, 0
}

// done returns the array built since the previous done, with its capacity
// cut to its length.
func (a *partsArena) done() []record.Value {
	n := len(a.block)
	parts := a.block[a.from:n:n]
	a.from = n
	return parts
}
