package httpguard

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
)

// ParseHeaderNames reads a list of header names into their canonical
// form.
func ParseHeaderNames(list []string) ([]string, error) {
	var out []string
	for _, n := range list {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		for _, c := range n {
			if !(c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
				return nil, errors.New(strconv.Quote(n) + " is not a header name")
			}
		}
		out = append(out, http.CanonicalHeaderKey(n))
	}
	return out, nil
}

// SplitList reads a comma-separated flag.
func SplitList(v string) []string {
	var out []string
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
