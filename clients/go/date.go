package innkeep

import (
	"encoding/json"
	"time"
)

// Date is a calendar date (YYYY-MM-DD), as the API writes check_in, check_out and the like.
type Date struct{ time.Time }

// NewDate is the date of year, month and day.
func NewDate(year int, month time.Month, day int) Date {
	return Date{time.Date(year, month, day, 0, 0, 0, 0, time.UTC)}
}

// ParseDate reads YYYY-MM-DD.
func ParseDate(s string) (Date, error) {
	t, err := time.Parse(time.DateOnly, s)
	return Date{t}, err
}

func (d Date) String() string { return d.Format(time.DateOnly) }

func (d Date) MarshalJSON() ([]byte, error) { return json.Marshal(d.String()) }

func (d *Date) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	t, err := time.Parse(time.DateOnly, s)
	d.Time = t
	return err
}

// AddDays is the date n days later.
func (d Date) AddDays(n int) Date { return Date{d.AddDate(0, 0, n)} }
