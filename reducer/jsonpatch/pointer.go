package jsonpatch

import (
	"strconv"
	"strings"

	"github.com/agui-reducer/agui/reducer/jsontree"
)

// maxIndex is the largest array index taken at face value. fast-json-patch
// converts index strings with ~~key, which wraps above 2³¹-1 (so
// "4294967297" would mean 1); larger indices are treated as out of range
// instead.
const maxIndex = 1<<31 - 1

// nextToken splits the first reference token off a non-empty pointer that
// starts with "/". rest is empty after the last token.
func nextToken(p string) (raw, rest string) {
	p = p[1:]
	if i := strings.IndexByte(p, '/'); i >= 0 {
		return p[:i], p[i:]
	}
	return p, ""
}

// unescape decodes ~1 and ~0 in that order, as fast-json-patch does.
// Other uses of ~ are left alone.
func unescape(raw string) string {
	if strings.IndexByte(raw, '~') < 0 {
		return raw
	}
	return strings.ReplaceAll(strings.ReplaceAll(raw, "~1", "/"), "~0", "~")
}

// appendToken appends "/" and key escaped as a reference token.
func appendToken(dst []byte, key string) []byte {
	return jsontree.AppendPointerToken(append(dst, '/'), key)
}

func appendIndex(dst []byte, i int) []byte {
	return strconv.AppendInt(append(dst, '/'), int64(i), 10)
}

// banned reports the tokens fast-json-patch refuses: __proto__ anywhere,
// and prototype right after a raw constructor token.
func banned(key, prevRaw string) bool {
	return key == "__proto__" || key == "prototype" && prevRaw == "constructor"
}

// isDigits is fast-json-patch's isInteger: only ASCII digits, and the
// empty string qualifies.
func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// parseIndex converts a digits-only key the way ~~key does for keys up to
// maxIndex: leading zeros are ignored and "" is 0. ok is false when the
// value exceeds maxIndex.
func parseIndex(s string) (n int, ok bool) {
	for i := 0; i < len(s); i++ {
		n = n*10 + int(s[i]-'0')
		if n > maxIndex {
			return 0, false
		}
	}
	return n, true
}

// elementKey reports whether key names an existing element of an array of
// length n, the way arr[key] !== undefined does in JavaScript: only the
// canonical decimal form ("7", not "07" or "") counts.
func elementKey(key string, n int) (int, bool) {
	if key == "" || len(key) > 1 && key[0] == '0' || !isDigits(key) {
		return 0, false
	}
	i, ok := parseIndex(key)
	return i, ok && i < n
}
