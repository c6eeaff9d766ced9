package record

// Records of one stream have their fields in the same order (the parser
// sets them so), so a processor that reads or writes the same field in
// every record of a batch can remember where it found it and look there
// first: one name comparison instead of a scan of a dozen names. The
// hinted forms below do that; a wrong or stale hint (another record
// layout, a field removed) only costs the scan that Get and Set do.

// GetHint returns the value of a field, whether it exists, and its
// position (for the next record's hint; -1 if absent). It looks at
// position hint first.
func (r *Record) GetHint(name string, hint int) (v Value, at int, ok bool) {
	if uint(hint) < uint(len(r.fields)) && r.fields[hint].Name == name {
		return r.fields[hint].Value, hint, true
	}
	if r.names&nameBit(name) == 0 {
		return Value{}, -1, false
	}
	for i := range r.fields {
		if r.fields[i].Name == name {
			return r.fields[i].Value, i, true
		}
	}
	return Value{}, -1, false
}

// SetHint is Set looking at position hint first. It returns the position
// of the field, for the next record's hint.
func (r *Record) SetHint(name string, v Value, hint int) int {
	if uint(hint) < uint(len(r.fields)) && r.fields[hint].Name == name {
		r.fields[hint].Value = v
		return hint
	}
	r.Set(name, v)
	// Set either replaced the field where it was or appended it; the
	// append is the common case of a new field.
	if n := len(r.fields) - 1; r.fields[n].Name == name {
		return n
	}
	_, at, _ := r.GetHint(name, -1)
	return at
}

// RemoveHint is Remove looking at position hint first.
func (r *Record) RemoveHint(name string, hint int) {
	if uint(hint) < uint(len(r.fields)) && r.fields[hint].Name == name {
		r.fields = append(r.fields[:hint], r.fields[hint+1:]...)
		return
	}
	r.Remove(name)
}
