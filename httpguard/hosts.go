package httpguard

import (
	"errors"
	"net"
	"strconv"
	"strings"
)

// Hosts is a Host allow-list: loopback names and IP literals always, and
// the names listed ("*.example" for subdomains).
type Hosts map[string]bool

// ParseHosts reads a list of host names (a port is ignored).
func ParseHosts(list []string) (Hosts, error) {
	p := Hosts{}
	for _, n := range list {
		n = strings.ToLower(strings.TrimSpace(n))
		if n == "" {
			continue
		}
		for _, c := range n {
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || strings.ContainsRune("-.*:[]", c)) {
				return nil, errors.New("allowed host " + strconv.Quote(n) + " is not a host name")
			}
		}
		if h, _, err := net.SplitHostPort(n); err == nil {
			n = h
		}
		n = strings.TrimSuffix(n, ".")
		// A pattern that could never match a Host is a mistake to report,
		// not a name to keep: "*" (any host is not an option: that is
		// what DNS rebinding needs), "*example.com", "a.*.b", "a..b".
		name := strings.TrimPrefix(n, "*.")
		if name == "" || strings.Contains(name, "*") || strings.HasPrefix(name, ".") || strings.Contains(name, "..") {
			return nil, errors.New("allowed host " + strconv.Quote(n) + " is not a host name (or *.name for its subdomains)")
		}
		p[n] = true
	}
	return p, nil
}

// Allows reports whether a request's Host header (host[:port]) is allowed.
func (p Hosts) Allows(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.ToLower(strings.Trim(host, "[]")), ".")
	switch {
	case host == "":
		return false
	case net.ParseIP(host) != nil, host == "localhost", strings.HasSuffix(host, ".localhost"), p[host]:
		return true // IP literals, and loopback names (RFC 6761)
	}
	for rest := host; ; {
		i := strings.IndexByte(rest, '.')
		if i < 0 {
			return false
		}
		rest = rest[i+1:]
		if p["*."+rest] {
			return true
		}
	}
}
