package fields

import "github.com/weir-streams/weir/internal/record"

// fieldHints remembers where fields were in the previous record. Records
// of a stream share their field order, so a processor that reads or
// writes the same fields in every record looks for each first where it
// was (record.GetHint, SetHint): one name comparison instead of a scan.
// Slot i serves the i-th field a processor touches in a record; fields
// past the last slot share slots, and a wrong hint only costs the scan.
// The zero value is ready to use; a batch's Process call keeps its own.
type fieldHints [16]int

// get returns the value of name in r, looking first where slot i's field
// was in the previous record, and whether r has it.
func (h *fieldHints) get(r *record.Record, i int, name string) (record.Value, bool) {
	p := &h[uint(i)%uint(len(h))]
	v, at, ok := r.GetHint(name, *p)
	if ok {
		*p = at
	}
	return v, ok
}

// each calls fn with every record of recs that has the field name and
// its value; slot 0 serves name, and fn may use the others.
func (h *fieldHints) each(recs []*record.Record, name string, fn func(r *record.Record, v record.Value)) {
	for _, r := range recs {
		if v, ok := h.get(r, 0, name); ok {
			fn(r, v)
		}
	}
}

// set sets name to v in r, looking first where slot i's field was in the
// previous record.
func (h *fieldHints) set(r *record.Record, i int, name string, v record.Value) {
	p := &h[uint(i)%uint(len(h))]
	*p = r.SetHint(name, v, *p)
}

// remove removes name from r, looking first where slot i's field was in
// the previous record.
func (h *fieldHints) remove(r *record.Record, i int, name string) {
	r.RemoveHint(name, h[uint(i)%uint(len(h))])
}

// textOf returns the text of v: a string as it is, any other value in
// its text form.
func textOf(v record.Value) string {
	if s, ok := v.AsString(); ok {
		return s
	}
	return v.Text()
}
