package fields

import (
	"time"

	"github.com/weir-streams/weir/internal/civil"
)

// A datePlan reads dates of a fixed-width SimpleDateFormat pattern (the
// common ones: dd/MMM/yyyy:HH:mm:ss Z, yyyy-MM-dd HH:mm:ss,
// yyyy-MM-dd'T'HH:mm:ss.SSSXXX, yyyyMMddHHmmss) in one pass over the
// bytes, where time.ParseInLocation walks its layout chunk by chunk; on
// the access log that was most of ConvertSimpleDateFormatFields' cost.
//
// A plan only takes what it is sure of: exact digit counts, English
// month abbreviations as written, in-range values, the literal bytes as
// they are. Whatever it does not take (one digit where the layout allows
// one or two, "may" for "May", two spaces where the layout has one, a
// comma before the fraction, out-of-range values, ...) it leaves to
// time.ParseInLocation, which gives the answer or the error: so a date
// converts exactly as time.ParseInLocation converts it (tested against it).
type datePlan struct {
	steps []dateStep
	// zoned: the pattern has an offset (Z or XXX); else the processor's
	// time zone applies.
	zoned bool
}

type dateStep struct {
	kind  dateKind
	lit   byte // the byte of a literal step
	width int  // digits of a number step
}

type dateKind uint8

const (
	stepLit dateKind = iota
	stepYear
	stepMonth
	stepMonthName
	stepDay
	stepHour
	stepMinute
	stepSecond
	stepFraction
	stepNumTZ   // -0700
	stepColonTZ // Z or -07:00
)

// newDatePlan returns the plan of a Java pattern, or nil if the pattern
// holds anything a plan does not read (the processor then always uses
// time.ParseInLocation). Its layout is what JavaDateLayout makes of the
// pattern: each letter run maps to one Go layout element, and the literal
// bytes allowed here are ones that the Go layout reads as literals.
func newDatePlan(pattern string) *datePlan {
	p := &datePlan{}
	var have [stepColonTZ + 1]bool
	for i := 0; i < len(pattern); {
		c := pattern[i]
		if c == '\'' {
			// Only 'T', the ISO separator, as quoted text.
			if i+2 < len(pattern) && pattern[i+1] == 'T' && pattern[i+2] == '\'' {
				p.steps = append(p.steps, dateStep{kind: stepLit, lit: 'T'})
				i += 3
				continue
			}
			return nil
		}
		n := 1
		for i+n < len(pattern) && pattern[i+n] == c {
			n++
		}
		var st dateStep
		switch {
		case c == 'y' && n != 2:
			st = dateStep{kind: stepYear, width: 4}
		case c == 'M' && n == 2:
			st = dateStep{kind: stepMonth, width: 2}
		case c == 'M' && n == 3:
			st = dateStep{kind: stepMonthName}
		case c == 'd' && n == 2:
			st = dateStep{kind: stepDay, width: 2}
		case (c == 'H' || c == 'k') && n == 2:
			st = dateStep{kind: stepHour, width: 2}
		case c == 'm' && n == 2:
			st = dateStep{kind: stepMinute, width: 2}
		case c == 's' && n == 2:
			st = dateStep{kind: stepSecond, width: 2}
		case c == 'S' && n <= 9:
			// JavaDateLayout refuses S that does not follow . or ,;
			// the plan reads the fraction after a '.' only.
			if len(p.steps) == 0 || p.steps[len(p.steps)-1].kind != stepLit || p.steps[len(p.steps)-1].lit != '.' {
				return nil
			}
			st = dateStep{kind: stepFraction, width: n}
		case c == 'Z' && n == 1:
			st = dateStep{kind: stepNumTZ}
		case c == 'X' && n == 3:
			st = dateStep{kind: stepColonTZ}
		case c == ' ' || c == '/' || c == ':' || c == '-' || c == '.' || c == '[' || c == ']':
			for k := 0; k < n; k++ {
				p.steps = append(p.steps, dateStep{kind: stepLit, lit: c})
			}
			i += n
			continue
		default:
			return nil
		}
		if have[st.kind] {
			return nil
		}
		// Digits right after a fraction would make the Go layout read
		// its zeros as a number, not as the fraction.
		if len(p.steps) > 0 && p.steps[len(p.steps)-1].kind == stepFraction && st.width > 0 {
			return nil
		}
		have[st.kind] = true
		p.steps = append(p.steps, st)
		i += n
	}
	// The Go layout reads "-" before "07" as an offset and "." before
	// "0" or "9" as a fraction; the literals above never stand there
	// except "." before S (the fraction itself). Without a year, month
	// and day, time.Parse fills in defaults: left to it.
	if !have[stepYear] || !have[stepMonth] && !have[stepMonthName] || !have[stepDay] {
		return nil
	}
	p.zoned = have[stepNumTZ] || have[stepColonTZ]
	return p
}

// monthAbbrevs are the English month abbreviations as time.Parse writes
// them (it also reads them in other cases, which the plan leaves to it).
var monthAbbrevs = [12]string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}

// parse returns the epoch milliseconds of s, and false if the plan does
// not take s (time.ParseInLocation then decides).
func (p *datePlan) parse(s string, loc *time.Location) (int64, bool) {
	year, month, day, hour, minute, sec, nsec, offset := 0, 0, 0, 0, 0, 0, 0, 0
	i := 0
	for k, st := range p.steps {
		switch st.kind {
		case stepLit:
			if i >= len(s) || s[i] != st.lit {
				return 0, false
			}
			// time.Parse lets a space of the layout stand for a run
			// of spaces; a plan takes one space for one, and no step
			// after a space takes a space, so a longer run is left
			// to time.Parse.
			i++
			continue
		case stepMonthName:
			if len(s)-i < 3 {
				return 0, false
			}
			m := 0
			for j, name := range monthAbbrevs {
				if s[i:i+3] == name {
					m = j + 1
					break
				}
			}
			if m == 0 {
				return 0, false
			}
			month = m
			i += 3
			continue
		case stepNumTZ, stepColonTZ:
			if st.kind == stepColonTZ && i < len(s) && s[i] == 'Z' {
				i++
				continue
			}
			w := 5
			if st.kind == stepColonTZ {
				w = 6
			}
			if len(s)-i < w || s[i] != '+' && s[i] != '-' {
				return 0, false
			}
			mm := i + 3
			if st.kind == stepColonTZ {
				if s[i+3] != ':' {
					return 0, false
				}
				mm++
			}
			h, ok1 := digits(s, i+1, 2)
			m, ok2 := digits(s, mm, 2)
			if !ok1 || !ok2 || h > 23 || m > 59 {
				return 0, false
			}
			offset = (h*60 + m) * 60
			if s[i] == '-' {
				offset = -offset
			}
			i += w
			continue
		}
		n, ok := digits(s, i, st.width)
		if !ok {
			return 0, false
		}
		i += st.width
		switch st.kind {
		case stepYear:
			year = n
		case stepMonth:
			month = n
		case stepDay:
			day = n
		case stepHour:
			hour = n
		case stepMinute:
			minute = n
		case stepSecond:
			sec = n
			// time.Parse reads a fraction after the seconds even
			// when the layout has none: left to it.
			if i+1 < len(s) && (s[i] == '.' || s[i] == ',') && isDigitByte(s[i+1]) &&
				(k+2 >= len(p.steps) || p.steps[k+2].kind != stepFraction) {
				return 0, false
			}
		case stepFraction:
			for w := st.width; w < 9; w++ {
				n *= 10
			}
			nsec = n
		}
	}
	if i != len(s) || month < 1 || month > 12 || day < 1 || day > civil.DaysIn(year, month) ||
		hour > 23 || minute > 59 || sec > 59 {
		return 0, false
	}
	if p.zoned {
		return time.Date(year, time.Month(month), day, hour, minute, sec, nsec, time.UTC).UnixMilli() - int64(offset)*1000, true
	}
	return time.Date(year, time.Month(month), day, hour, minute, sec, nsec, loc).UnixMilli(), true
}

// digits reads exactly w decimal digits at s[i:].
func digits(s string, i, w int) (int, bool) {
	if len(s)-i < w {
		return 0, false
	}
	n := 0
	for j := i; j < i+w; j++ {
		if !isDigitByte(s[j]) {
			return 0, false
		}
		n = n*10 + int(s[j]-'0')
	}
	return n, true
}

func isDigitByte(c byte) bool { return c >= '0' && c <= '9' }
