package main

import (
	"bytes"
	"encoding/json"
)

// jsonIndent pretty-prints for people; key order is preserved by
// encoding/json's Indent, which works on the text.
func jsonIndent(dst *bytes.Buffer, src []byte) error { return json.Indent(dst, src, "", "  ") }
