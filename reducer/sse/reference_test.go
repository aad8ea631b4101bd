package sse

import (
	"strings"
	"unicode/utf8"
)

// This file holds a deliberately naive implementation of the standard, used
// as an oracle: it decodes the whole stream first, with the WHATWG UTF-8
// decoder transcribed step by step, then splits lines and interprets them
// with strings. It knows nothing of chunks and has no size limit.

// refDecode is the WHATWG "UTF-8 decode" algorithm (BOM sniffing included)
// with the "replacement" error mode.
func refDecode(b []byte) string {
	if len(b) >= 3 && string(b[:3]) == bom {
		b = b[3:]
	}
	var out strings.Builder
	cp, needed, seen := rune(0), 0, 0
	lower, upper := byte(0x80), byte(0xBF)
	for i := 0; ; {
		if i == len(b) {
			if needed != 0 {
				out.WriteRune(utf8.RuneError)
			}
			return out.String()
		}
		c := b[i]
		if needed == 0 {
			switch {
			case c <= 0x7F:
				out.WriteByte(c)
			case 0xC2 <= c && c <= 0xDF:
				needed, cp = 1, rune(c&0x1F)
			case 0xE0 <= c && c <= 0xEF:
				if c == 0xE0 {
					lower = 0xA0
				}
				if c == 0xED {
					upper = 0x9F
				}
				needed, cp = 2, rune(c&0xF)
			case 0xF0 <= c && c <= 0xF4:
				if c == 0xF0 {
					lower = 0x90
				}
				if c == 0xF4 {
					upper = 0x8F
				}
				needed, cp = 3, rune(c&0x7)
			default:
				out.WriteRune(utf8.RuneError)
			}
			i++
			continue
		}
		if c < lower || c > upper {
			// Error: emit U+FFFD and reprocess c from the initial state.
			cp, needed, seen = 0, 0, 0
			lower, upper = 0x80, 0xBF
			out.WriteRune(utf8.RuneError)
			continue
		}
		lower, upper = 0x80, 0xBF
		cp = cp<<6 | rune(c&0x3F)
		seen++
		i++
		if seen == needed {
			out.WriteRune(cp)
			cp, needed, seen = 0, 0, 0
		}
	}
}

// refParse interprets a whole stream.
func refParse(b []byte) (events []Event, lastID string, retry int) {
	s := refDecode(b)
	var data, typ, id strings.Builder
	var evRetry int
	var hasID bool
	for {
		i := strings.IndexAny(s, "\r\n")
		if i < 0 {
			return events, lastID, retry // unterminated line and event discarded
		}
		line := s[:i]
		if strings.HasPrefix(s[i:], "\r\n") {
			s = s[i+2:]
		} else {
			s = s[i+1:]
		}
		switch {
		case line == "":
			lastID = id.String()
			if data.Len() > 0 {
				d := strings.TrimSuffix(data.String(), "\n")
				events = append(events, Event{Type: typ.String(), Data: d, ID: lastID, HasID: hasID, Retry: evRetry})
			}
			data.Reset()
			typ.Reset()
			evRetry, hasID = 0, false
			continue
		case line[0] == ':':
			continue
		}
		field, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch field {
		case "event":
			typ.Reset()
			typ.WriteString(value)
		case "data":
			data.WriteString(value)
			data.WriteByte('\n')
		case "id":
			if !strings.Contains(value, "\x00") {
				id.Reset()
				id.WriteString(value)
				hasID = true
			}
		case "retry":
			if value != "" && strings.Trim(value, "0123456789") == "" {
				n := 0
				for _, c := range value {
					n = n*10 + int(c-'0')
					if n > maxRetry {
						break
					}
				}
				if n <= maxRetry {
					evRetry, retry = n, n
				}
			}
		}
	}
}
