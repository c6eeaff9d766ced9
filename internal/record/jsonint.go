package record

import "strconv"

// digitPairs holds "00" to "99": two digits a lookup.
const digitPairs = "00010203040506070809" +
	"10111213141516171819" +
	"20212223242526272829" +
	"30313233343536373839" +
	"40414243444546474849" +
	"50515253545556575859" +
	"60616263646566676869" +
	"70717273747576777879" +
	"80818283848586878889" +
	"90919293949596979899"

// AppendInt appends n in decimal, as strconv.AppendInt(dst, n, 10) does.
// Numbers of 9 to 16 digits (epoch milliseconds, the creation date and the
// time of every parsed log record, have 13) are cut into two parts below
// 10^8 and written two digits a lookup with 32-bit arithmetic; the rest go
// to strconv.
func AppendInt(dst []byte, n int64) []byte {
	if n < 1e8 || n >= 1e16 {
		return strconv.AppendInt(dst, n, 10)
	}
	var buf [16]byte
	hi, lo := uint32(uint64(n)/1e8), uint32(uint64(n)%1e8)
	// The low eight digits, all of them.
	for i := 14; i >= 8; i -= 2 {
		q := lo / 100
		d := (lo - q*100) * 2
		lo = q
		buf[i], buf[i+1] = digitPairs[d], digitPairs[d+1]
	}
	// The high part, 1 to 8 digits.
	i := 8
	for hi >= 100 {
		q := hi / 100
		d := (hi - q*100) * 2
		hi = q
		i -= 2
		buf[i], buf[i+1] = digitPairs[d], digitPairs[d+1]
	}
	if hi >= 10 {
		i -= 2
		buf[i], buf[i+1] = digitPairs[hi*2], digitPairs[hi*2+1]
	} else {
		i--
		buf[i] = byte('0' + hi)
	}
	return append(dst, buf[i:]...)
}
