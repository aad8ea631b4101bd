package eventjson

// Reconcile compares a text a producer sends whole, again (full), with the
// text streamed so far (shown), as the reducer and the translators both
// must: it returns the suffix to append when full extends shown, "" when
// full is shown or a stale prefix of it, and replace when they disagree.
func Reconcile(shown []byte, full string) (delta string, replace bool) {
	switch {
	case len(full) >= len(shown) && string(shown) == full[:len(shown)]:
		return full[len(shown):], false
	case len(shown) > len(full) && string(shown[:len(full)]) == full:
		return "", false
	}
	return "", true
}
