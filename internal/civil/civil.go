// Package civil holds the arithmetic of calendar dates in the proleptic
// Gregorian calendar that time.Date uses, for parsers that read dates
// without time.Parse (SplitText's Apache times, ConvertSimpleDateFormatFields'
// fixed-width patterns): checking a day against its month, and counting
// days from the Unix epoch.
package civil

// DaysIn returns the number of days of month (1-12) in year.
func DaysIn(year, month int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// DaysFromEpoch returns the days from 1970-01-01 to year-month-day (month
// 1-12, day 1-31): Howard Hinnant's days_from_civil, which gives what
// time.Date(year, month, day, 0, 0, 0, 0, time.UTC).Unix()/86400 gives for
// years 0-9999 without its normalization work.
func DaysFromEpoch(year, month, day int) int64 {
	y := year
	if month <= 2 {
		y--
	}
	era := y / 400
	if y < 0 { // January or February of year 0
		era = (y - 399) / 400
	}
	yoe := y - era*400
	mp := (month + 9) % 12
	doy := (153*mp+2)/5 + day - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return int64(era)*146097 + int64(doe) - 719468
}
