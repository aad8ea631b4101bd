package jsontree

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

type member struct{ key, value string }

// scanAll collects the members ScanObject delivers, copying keys and values.
func scanAll(data []byte, opt ParseOptions) ([]member, error) {
	var ms []member
	err := ScanObject(data, opt, func(key, value []byte) error {
		ms = append(ms, member{string(key), string(value)})
		return nil
	})
	return ms, err
}

func TestScanObject(t *testing.T) {
	tests := []struct {
		in   string
		want []member
	}{
		{`{}`, nil},
		{" \t\r\n{ } \n", nil},
		{`{"a":1}`, []member{{"a", "1"}}},
		{`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":" token"}`,
			[]member{{"type", `"TEXT_MESSAGE_CONTENT"`}, {"messageId", `"m1"`}, {"delta", `" token"`}}},
		// Whitespace everywhere is not part of any span.
		{" {\n \"a\" :\t[ 1 , 2 ] ,\r\n\"b\": { \"c\" : null } , \"d\" :\"x\" }\n",
			[]member{{"a", "[ 1 , 2 ]"}, {"b", `{ "c" : null }`}, {"d", `"x"`}}},
		// Every kind of value, nested values as exact spans.
		{`{"n":null,"t":true,"f":false,"i":-12.5e+3,"s":"a\"b","arr":[[],{},[{"x":[1]}]],"o":{"k":{"k":{}}},"z":0}`,
			[]member{{"n", "null"}, {"t", "true"}, {"f", "false"}, {"i", "-12.5e+3"}, {"s", `"a\"b"`},
				{"arr", `[[],{},[{"x":[1]}]]`}, {"o", `{"k":{"k":{}}}`}, {"z", "0"}}},
		// Keys are decoded as Parse decodes them.
		{`{"\u0061\n":1,"\"q\"":2,"\ud83d\ude00":3,"\ud83d":4,"é":5,"":6}`,
			[]member{{"a\n", "1"}, {`"q"`, "2"}, {"😀", "3"}, {"\xed\xa0\xbd", "4"}, {"é", "5"}, {"", "6"}}},
		{"{\"k\xff\":1,\"\xe2\x82\":2}", []member{{"k\uFFFD", "1"}, {"\uFFFD", "2"}}},
		// Duplicates are delivered as they come.
		{`{"a":1,"b":2,"a":3,"a":{"x":1}}`, []member{{"a", "1"}, {"b", "2"}, {"a", "3"}, {"a", `{"x":1}`}}},
		// Strings in skipped values may hold anything Parse accepts.
		{"{\"raw\":{\"s\":\"\\\"}\\\\\",\"u\":\"\\ud83d\\u0041\",\"bad\":\"\xff\xfe\",\"é\":[\"]\"]}}",
			[]member{{"raw", "{\"s\":\"\\\"}\\\\\",\"u\":\"\\ud83d\\u0041\",\"bad\":\"\xff\xfe\",\"é\":[\"]\"]}"}}},
	}
	for _, tt := range tests {
		got, err := scanAll([]byte(tt.in), ParseOptions{})
		if err != nil {
			t.Errorf("ScanObject(%q): %v", tt.in, err)
			continue
		}
		if len(got) != len(tt.want) {
			t.Errorf("ScanObject(%q) = %q, want %q", tt.in, got, tt.want)
			continue
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("ScanObject(%q) member %d = %q, want %q", tt.in, i, got[i], tt.want[i])
			}
		}
		checkScan(t, []byte(tt.in), ParseOptions{})
	}
}

func TestScanObjectNotObject(t *testing.T) {
	for _, in := range []string{`null`, `true`, ` 1 `, `"{}"`, `[]`, `[{"a":1}]`, "\n-0.5e1"} {
		err := ScanObject([]byte(in), ParseOptions{}, func(key, value []byte) error {
			t.Errorf("ScanObject(%q) called fn", in)
			return nil
		})
		var se *SyntaxError
		if !errors.As(err, &se) || se.Code != CodeNotObject {
			t.Errorf("ScanObject(%q): err = %v, want code %s", in, err, CodeNotObject)
			continue
		}
		if want := len(in) - len(strings.TrimLeft(in, " \n")); se.Offset != want {
			t.Errorf("ScanObject(%q): offset %d, want %d", in, se.Offset, want)
		}
	}
	// An invalid non-object is reported as Parse reports it, not as
	// not_object.
	for _, in := range []string{`[1,]`, `[`, `"abc`, `01`, `[[[]]]`} {
		checkScan(t, []byte(in), ParseOptions{MaxDepth: 2})
	}
}

// TestScanObjectParseInputs runs the ScanObject/Parse agreement over the
// inputs of Parse's own tests, bare and as member values.
func TestScanObjectParseInputs(t *testing.T) {
	var inputs []string
	for _, tt := range parseValidTests {
		inputs = append(inputs, tt.in)
	}
	for _, tt := range parseInvalidTests {
		inputs = append(inputs, tt.in)
	}
	for _, in := range inputs {
		for _, doc := range []string{
			in,
			`{"k":` + in + `}`,
			`{"a":1, "k" : ` + in + ` }`,
			`{"k":[` + in + `],"z":2}`,
			`{` + in + `:1}`, // as a key
		} {
			checkScan(t, []byte(doc), ParseOptions{})
		}
	}
	for _, tt := range parseDepthTests {
		for _, doc := range []string{tt.in, `{"k":` + tt.in + `}`, `{"a":[],"k":` + tt.in + `}`} {
			for _, d := range []int{tt.maxDepth, tt.maxDepth + 1} {
				checkScan(t, []byte(doc), ParseOptions{MaxDepth: d})
			}
		}
	}
}

// TestScanObjectGenerated checks the agreement on generated documents, valid
// and broken.
func TestScanObjectGenerated(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := 3000
	if testing.Short() {
		n = 300
	}
	for i := 0; i < n; i++ {
		doc := genObject(r, 4)
		opt := ParseOptions{MaxDepth: r.IntN(7)}
		checkScan(t, doc, opt)
		// Every prefix, and a few corruptions.
		if i%10 == 0 {
			for j := range doc {
				checkScan(t, doc[:j], opt)
			}
		}
		for range 5 {
			checkScan(t, mutate(r, doc), opt)
		}
	}
}

// genObject returns a random JSON object, with random whitespace, every
// kind of value, escapes, non-ASCII text and invalid UTF-8.
func genObject(r *rand.Rand, depth int) []byte {
	var b []byte
	ws := func() {
		for r.IntN(4) == 0 {
			b = append(b, " \t\r\n"[r.IntN(4)])
		}
	}
	str := func() {
		b = append(b, '"')
		for n := r.IntN(20); n > 0; n-- {
			switch r.IntN(12) {
			case 0:
				b = append(b, `\n`...)
			case 1:
				b = append(b, `\"`...)
			case 2:
				b = append(b, `\u00e9`...)
			case 3:
				b = append(b, `\ud83d\ude00`...)
			case 4:
				b = append(b, `\udc00`...)
			case 5:
				b = append(b, "é中😀"...)
			case 6:
				b = append(b, "\xff\xe2\x82"...)
			case 7:
				b = append(b, `\\`...)
			default:
				b = append(b, "abcdefgh{}[],: "[r.IntN(15)])
			}
		}
		b = append(b, '"')
	}
	keys := []string{`"a"`, `"b"`, `"type"`, `"delta"`, `"a\u0062"`, `"é"`}
	var val, obj func(d int)
	val = func(d int) {
		ws()
		k := r.IntN(9)
		if d <= 0 && k >= 7 {
			k = r.IntN(7)
		}
		switch k {
		case 0:
			b = append(b, "null"...)
		case 1:
			b = append(b, "true"...)
		case 2:
			b = append(b, "false"...)
		case 3:
			b = append(b, []string{"0", "-1", "12.5", "1e400", "-0.0E-7", "123456789012345678901234567890"}[r.IntN(6)]...)
		case 4, 5, 6:
			str()
		case 7:
			b = append(b, '[')
			for i, n := 0, r.IntN(4); i < n; i++ {
				if i > 0 {
					b = append(b, ',')
				}
				val(d - 1)
			}
			ws()
			b = append(b, ']')
		case 8:
			obj(d - 1)
		}
		ws()
	}
	obj = func(d int) {
		b = append(b, '{')
		ws()
		for i, n := 0, r.IntN(5); i < n; i++ {
			if i > 0 {
				b = append(b, ',')
				ws()
			}
			if r.IntN(3) == 0 {
				str()
			} else {
				b = append(b, keys[r.IntN(len(keys))]...)
			}
			ws()
			b = append(b, ':')
			val(d)
		}
		b = append(b, '}')
	}
	ws()
	obj(depth)
	ws()
	return b
}

// mutate returns a copy of doc with one random edit.
func mutate(r *rand.Rand, doc []byte) []byte {
	b := bytes.Clone(doc)
	special := []byte("{}[]\":,\\ 0-.eE\x00\x1f\xffntu")
	if len(b) == 0 {
		return append(b, special[r.IntN(len(special))])
	}
	i := r.IntN(len(b))
	switch r.IntN(4) {
	case 0:
		b[i] = special[r.IntN(len(special))]
	case 1:
		b = append(b[:i], b[i+1:]...)
	case 2:
		b = append(b[:i], append([]byte{special[r.IntN(len(special))]}, b[i:]...)...)
	case 3:
		b = append(b, special[r.IntN(len(special))])
	}
	return b
}

// checkScan asserts that ScanObject agrees with Parse on data: it fails
// exactly when Parse fails, with the same error, or when Parse's result is
// not an object; otherwise its members, each parsed on its own and set into
// an Object in order, give Parse's object, and each value span is an exact,
// whitespace-free subslice of data.
func checkScan(t testing.TB, data []byte, opt ParseOptions) {
	t.Helper()
	checkScanArray(t, data, opt)
	name := string(data)
	if len(name) > 60 {
		name = name[:60] + "..."
	}
	want, perr := Parse(data, opt)
	got := NewObject(0)
	var members int
	serr := ScanObject(data, opt, func(key, value []byte) error {
		members++
		if len(value) == 0 || cap(value) > cap(data) {
			t.Fatalf("ScanObject(%q): value %q is not a span of the input", name, value)
		}
		start := cap(data) - cap(value)
		if &data[start] != &value[0] {
			t.Fatalf("ScanObject(%q): value %q is not a subslice of the input", name, value)
		}
		v, err := Parse(value, opt)
		if err != nil {
			t.Fatalf("ScanObject(%q): value %q does not parse: %v", name, value, err)
		}
		if len(bytes.TrimSpace(value)) != len(value) {
			t.Fatalf("ScanObject(%q): value %q has whitespace around it", name, value)
		}
		if s, ok := v.(string); ok {
			checkUnquote(t, value, s)
		}
		if k := KindOf(value); k != kindOfValue(v) {
			t.Fatalf("KindOf(%q) = %v, want %v", value, k, kindOfValue(v))
		}
		got.Set(string(key), v)
		return nil
	})
	if perr != nil {
		if serr == nil {
			t.Fatalf("ScanObject(%q, %d) succeeded, Parse failed: %v", name, opt.MaxDepth, perr)
		}
		if *serr.(*SyntaxError) != *perr.(*SyntaxError) {
			t.Fatalf("ScanObject(%q, %d): %#v, Parse: %#v", name, opt.MaxDepth, serr, perr)
		}
		return
	}
	if _, ok := want.(*Object); !ok {
		var se *SyntaxError
		if !errors.As(serr, &se) || se.Code != CodeNotObject || members != 0 {
			t.Fatalf("ScanObject(%q) of a %T: err %v, %d members", name, want, serr, members)
		}
		return
	}
	if serr != nil {
		t.Fatalf("ScanObject(%q, %d): %v, Parse succeeded", name, opt.MaxDepth, serr)
	}
	if !Equal(got, want) || !bytes.Equal(AppendJSON(nil, got), AppendJSON(nil, want)) {
		t.Fatalf("ScanObject(%q) built %s, Parse %s", name, AppendJSON(nil, got), AppendJSON(nil, want))
	}
}

// checkScanArray checks that ScanArray agrees with Parse: same acceptance,
// same errors, and elements, each a span of data, that rebuild Parse's array.
func checkScanArray(t testing.TB, data []byte, opt ParseOptions) {
	t.Helper()
	name := string(data)
	if len(name) > 60 {
		name = name[:60] + "..."
	}
	want, perr := Parse(data, opt)
	got := &Array{}
	serr := ScanArray(data, opt, func(elem []byte) error {
		if len(elem) == 0 || cap(elem) > cap(data) || &data[cap(data)-cap(elem)] != &elem[0] {
			t.Fatalf("ScanArray(%q): element %q is not a subslice of the input", name, elem)
		}
		if len(bytes.TrimSpace(elem)) != len(elem) {
			t.Fatalf("ScanArray(%q): element %q has whitespace around it", name, elem)
		}
		v, err := Parse(elem, opt)
		if err != nil {
			t.Fatalf("ScanArray(%q): element %q does not parse: %v", name, elem, err)
		}
		got.Elems = append(got.Elems, v)
		return nil
	})
	if perr != nil {
		if serr == nil {
			t.Fatalf("ScanArray(%q, %d) succeeded, Parse failed: %v", name, opt.MaxDepth, perr)
		}
		if *serr.(*SyntaxError) != *perr.(*SyntaxError) {
			t.Fatalf("ScanArray(%q, %d): %#v, Parse: %#v", name, opt.MaxDepth, serr, perr)
		}
		return
	}
	if _, ok := want.(*Array); !ok {
		var se *SyntaxError
		if !errors.As(serr, &se) || se.Code != CodeNotArray || len(got.Elems) != 0 {
			t.Fatalf("ScanArray(%q) of a %T: err %v, %d elements", name, want, serr, len(got.Elems))
		}
		return
	}
	if serr != nil {
		t.Fatalf("ScanArray(%q, %d): %v, Parse succeeded", name, opt.MaxDepth, serr)
	}
	if !Equal(got, want) {
		t.Fatalf("ScanArray(%q) built %s, Parse %s", name, AppendJSON(nil, got), AppendJSON(nil, want))
	}
}

func kindOfValue(v Value) Kind {
	switch v.(type) {
	case nil:
		return KindNull
	case bool:
		return KindBool
	case Number:
		return KindNumber
	case string:
		return KindString
	case *Array:
		return KindArray
	case *Object:
		return KindObject
	}
	return KindInvalid
}

// checkUnquote asserts that UnquoteString and AppendUnquoted decode raw to
// want.
func checkUnquote(t testing.TB, raw []byte, want string) {
	t.Helper()
	s, err := UnquoteString(raw)
	if err != nil || s != want {
		t.Fatalf("UnquoteString(%q) = %q, %v; want %q", raw, s, err, want)
	}
	for _, prefix := range []string{"", "prefix·"} {
		dst := append(make([]byte, 0, len(prefix)+len(raw)), prefix...)
		b, err := AppendUnquoted(dst, raw)
		if err != nil || string(b) != prefix+want {
			t.Fatalf("AppendUnquoted(%q, %q) = %q, %v; want %q", prefix, raw, b, err, prefix+want)
		}
		b, err = AppendUnquoted([]byte(prefix), raw) // no spare capacity
		if err != nil || string(b) != prefix+want {
			t.Fatalf("AppendUnquoted(%q, %q) = %q, %v; want %q", prefix, raw, b, err, prefix+want)
		}
	}
}

func TestScanObjectDepth(t *testing.T) {
	deep := func(n int) string {
		return `{"a":1,"k":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}`
	}
	tests := []struct {
		in       string
		maxDepth int
		code     string
	}{
		{`{"k":[[1]]}`, 3, ""},
		{`{"k":[[1]]}`, 2, CodeTooDeep},
		{`{"k":[[]]}`, 2, CodeTooDeep},
		{`{"k":{"k":{}}}`, 3, ""},
		{`{"k":{"k":{}}}`, 2, CodeTooDeep},
		{`{}`, 1, ""},
		{`{"k":1}`, 1, ""},
		{`{"k":[]}`, 1, CodeTooDeep},
		{deep(DefaultMaxDepth - 1), 0, ""},
		{deep(DefaultMaxDepth), 0, CodeTooDeep},
		{deep(100000), 0, CodeTooDeep},
		{`{"k":` + strings.Repeat("[", 100000), 0, CodeTooDeep},
		{`{"k":` + strings.Repeat(`{"a":`, 100000), 0, CodeTooDeep},
		{`{"k":` + strings.Repeat(`[{"a":`, 50000), 0, CodeTooDeep},
		// Deeper than skipValue's fixed kind stack, and mixed kinds.
		{deep(100000), 100001, ""},
		{`{"k":` + strings.Repeat(`[{"a":`, 50000) + `1` + strings.Repeat(`}]`, 50000) + `}`, 100001, ""},
		{`{"k":` + strings.Repeat(`[{"a":`, 50000) + `1` + strings.Repeat(`]}`, 50000) + `}`, 100001, CodeSyntax},
		{`{"k":` + strings.Repeat(`[{"a":`, 50000) + `1` + strings.Repeat(`}]`, 50000), 100001, CodeUnexpectedEnd},
	}
	for _, tt := range tests {
		name := tt.in
		if len(name) > 40 {
			name = name[:40] + "..."
		}
		err := ScanObject([]byte(tt.in), ParseOptions{MaxDepth: tt.maxDepth}, func(key, value []byte) error { return nil })
		if tt.code == "" {
			if err != nil {
				t.Errorf("ScanObject(%s, %d): %v", name, tt.maxDepth, err)
			}
		} else {
			var se *SyntaxError
			if !errors.As(err, &se) || se.Code != tt.code {
				t.Errorf("ScanObject(%s, %d): err = %v, want code %s", name, tt.maxDepth, err, tt.code)
			}
		}
		checkScan(t, []byte(tt.in), ParseOptions{MaxDepth: tt.maxDepth})
	}
}

func TestScanObjectFnError(t *testing.T) {
	stop := errors.New("stop")
	data := []byte(`{"a":1,"b":2,"c":3}`)
	var seen []string
	err := ScanObject(data, ParseOptions{}, func(key, value []byte) error {
		seen = append(seen, string(key))
		if string(key) == "b" {
			return stop
		}
		return nil
	})
	if err != stop {
		t.Errorf("err = %v, want the error fn returned", err)
	}
	if strings.Join(seen, ",") != "a,b" {
		t.Errorf("fn saw %q, want a, b", seen)
	}

	// fn's error wins over a syntax error later in the input, which is
	// then never reached.
	err = ScanObject([]byte(`{"a":1,"b":2,}`), ParseOptions{}, func(key, value []byte) error { return stop })
	if err != stop {
		t.Errorf("err = %v, want the error fn returned", err)
	}
	// Without fn's error the syntax error is reported, after the members
	// before it have been seen.
	seen = seen[:0]
	err = ScanObject([]byte(`{"a":1,"b":2,}`), ParseOptions{}, func(key, value []byte) error {
		seen = append(seen, string(key))
		return nil
	})
	var se *SyntaxError
	if !errors.As(err, &se) || se.Code != CodeSyntax || len(seen) != 2 {
		t.Errorf("err = %v after %q, want a syntax error after a, b", err, seen)
	}
}

func TestScanObjectAllocs(t *testing.T) {
	ascii := []byte(`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":" token","rawEvent":{"x":[1,2,{"y":"z\n"}]}}`)
	escaped := []byte(`{"ty\u0070e":"a","d\nelta":"b","\u00e9":1,"é":2}`)
	var buf []byte
	for _, tt := range []struct {
		data []byte
		max  float64
	}{{ascii, 0}, {escaped, 1}} {
		allocs := testing.AllocsPerRun(100, func() {
			err := ScanObject(tt.data, ParseOptions{}, func(key, value []byte) error {
				switch string(key) {
				case "delta":
					buf, _ = AppendUnquoted(buf[:0], value)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		})
		if allocs > tt.max {
			t.Errorf("ScanObject(%s): %v allocs, want at most %v", tt.data, allocs, tt.max)
		}
	}
	for _, tt := range []struct {
		raw  string
		want float64
	}{
		{`"abc"`, 1},
		{`"` + strings.Repeat("x", 200) + `"`, 1},
		{`"é\n\ud83d\ude00"`, 1},
		{"\"\xff\"", 1},
		{`""`, 0},
	} {
		raw := []byte(tt.raw)
		allocs := testing.AllocsPerRun(100, func() {
			if _, err := UnquoteString(raw); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != tt.want {
			t.Errorf("UnquoteString(%s): %v allocs, want %v", tt.raw, allocs, tt.want)
		}
	}
}

func TestUnquote(t *testing.T) {
	// Every string of Parse's tests.
	for _, tt := range parseValidTests {
		in := strings.TrimSpace(tt.in)
		if KindOf([]byte(in)) == KindString {
			checkUnquote(t, []byte(in), mustParse(t, in).(string))
		}
	}
	// Each special byte at every offset around the 8-byte scanning width.
	for n := 0; n < 24; n++ {
		for pos := 0; pos <= n; pos++ {
			for _, sp := range []string{`\n`, `\"`, `\\`, "é", "\xff", "\x7f", `\u00e9`, `\ud83d\ude00`, `\ud83d`} {
				pad := strings.Repeat("a", n)
				in := `"` + pad[:pos] + sp + pad[pos:] + `"`
				checkUnquote(t, []byte(in), mustParse(t, in).(string))
				checkScan(t, []byte(`{"k":`+in+`,`+in+`:[`+in+`]}`), ParseOptions{})
				bad := `"` + pad[:pos] + "\x1f" + pad[pos:] + `"`
				checkScan(t, []byte(`{"k":`+bad+`}`), ParseOptions{})
				checkScan(t, []byte(`{"k":[`+bad+`]}`), ParseOptions{})
				checkScan(t, []byte(`{"k":`+in[:len(in)-1]), ParseOptions{})
			}
		}
	}
}

func TestUnquoteInvalid(t *testing.T) {
	tests := []struct {
		in     string
		code   string
		offset int
	}{
		{``, CodeEmpty, 0},
		{`abc`, CodeSyntax, 0},
		{` "abc"`, CodeSyntax, 0},
		{`"abc" `, CodeTrailingData, 5},
		{`"a""b"`, CodeTrailingData, 3},
		{`"abc`, CodeUnexpectedEnd, 4},
		{`"\`, CodeUnexpectedEnd, 2},
		{`"\x"`, CodeSyntax, 2},
		{`"\u12x"`, CodeSyntax, 5},
		{"\"a\x01\"", CodeSyntax, 2},
		{`1`, CodeSyntax, 0},
	}
	for _, tt := range tests {
		_, err := UnquoteString([]byte(tt.in))
		var se *SyntaxError
		if !errors.As(err, &se) || se.Code != tt.code || se.Offset != tt.offset {
			t.Errorf("UnquoteString(%q): err = %v, want %s at %d", tt.in, err, tt.code, tt.offset)
		}
		dst := []byte("keep")
		b, err2 := AppendUnquoted(dst, []byte(tt.in))
		if err2 == nil || err2.Error() != err.Error() || string(b) != "keep" {
			t.Errorf("AppendUnquoted(%q) = %q, %v; want dst unchanged and %v", tt.in, b, err2, err)
		}
	}
}

func TestKindOf(t *testing.T) {
	tests := []struct {
		in   string
		want Kind
	}{
		{``, KindInvalid},
		{` 1`, KindInvalid},
		{`x`, KindInvalid},
		{`+1`, KindInvalid},
		{`null`, KindNull},
		{`true`, KindBool},
		{`false`, KindBool},
		{`0`, KindNumber},
		{`-1`, KindNumber},
		{`9e9`, KindNumber},
		{`""`, KindString},
		{`[]`, KindArray},
		{`{}`, KindObject},
	}
	for _, tt := range tests {
		if got := KindOf([]byte(tt.in)); got != tt.want {
			t.Errorf("KindOf(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
	for k := KindInvalid; k <= KindObject+1; k++ {
		if s := k.String(); s == "" || (k > KindObject) != strings.HasPrefix(s, "Kind(") {
			t.Errorf("Kind(%d).String() = %q", k, s)
		}
	}
	if KindObject.String() != "object" || Kind(200).String() != "Kind("+strconv.Itoa(200)+")" {
		t.Errorf("Kind names: %v %v", KindObject, Kind(200))
	}
}

// TestIndexQuote: IndexQuote finds what a byte loop finds, at every offset
// around the eight-byte words, next to bytes with the top bit set and
// bytes one off '"' and '\\'.
func TestIndexQuote(t *testing.T) {
	ref := func(b []byte) int {
		for i, c := range b {
			if c == '"' || c == '\\' {
				return i
			}
		}
		return -1
	}
	fills := []byte{'a', 0x80, 0xFF, '"' - 1, '"' + 1, '\\' - 1, '\\' + 1, 0xA2, 0xDC, 0x00, 0x1F}
	for _, fill := range fills {
		for n := 0; n <= 20; n++ {
			for at := -1; at < n; at++ {
				for _, special := range []byte{'"', '\\'} {
					b := bytes.Repeat([]byte{fill}, n)
					if at >= 0 {
						b[at] = special
					}
					if got, want := IndexQuote(b), ref(b); got != want {
						t.Fatalf("IndexQuote(%q) = %d, want %d", b, got, want)
					}
				}
			}
		}
	}
}

// stringEndRef is StringEnd one byte at a time.
func stringEndRef(data []byte, i int) (end int, escaped, high bool) {
	for i < len(data) {
		switch c := data[i]; {
		case c == '"':
			return i, escaped, high
		case c == '\\':
			escaped = true
			i += 2
		case c < 0x20:
			return -1, false, false
		case c >= 0x80:
			high = true
			i++
		default:
			i++
		}
	}
	return -1, false, false
}

// checkStringEnd fails t when StringEnd and the byte loop disagree on data
// from offset i.
func checkStringEnd(t *testing.T, data []byte, i int) {
	t.Helper()
	end, esc, high := StringEnd(data, i)
	wEnd, wEsc, wHigh := stringEndRef(data, i)
	if end != wEnd || esc != wEsc || high != wHigh {
		t.Fatalf("StringEnd(%q, %d) = %d, %v, %v; want %d, %v, %v", data, i, end, esc, high, wEnd, wEsc, wHigh)
	}
}

// TestStringEnd: StringEnd reads what a byte loop reads, at every offset
// around the eight-byte words: a closing quote, an escape (a quote after a
// backslash does not close), a control byte, bytes with the top bit set
// and bytes one off the special ones, and data that ends first.
func TestStringEnd(t *testing.T) {
	cases := []struct {
		in   string
		end  int
		esc  bool
		high bool
	}{
		{`"`, 0, false, false},
		{`abc"`, 3, false, false},
		{`a\"b"`, 4, true, false},
		{`a\\"`, 3, true, false},
		{`héllo wörld, long enough"`, 26, false, true},
		{"tab\there\"", -1, false, false},
		{`no end`, -1, false, false},
		{`ends in escape\`, -1, false, false},
		{`ends in escape\"`, -1, false, false},
		{``, -1, false, false},
	}
	for _, c := range cases {
		end, esc, high := StringEnd([]byte(c.in), 0)
		if end != c.end || esc != c.esc || high != c.high {
			t.Errorf("StringEnd(%q) = %d, %v, %v; want %d, %v, %v", c.in, end, esc, high, c.end, c.esc, c.high)
		}
	}
	fills := []byte{'a', 0x80, 0xFF, '"' - 1, '"' + 1, '\\' - 1, '\\' + 1, 0x20, 0x7F, 0xA2, 0x1F}
	for _, fill := range fills {
		for n := 0; n <= 20; n++ {
			for at := -1; at < n; at++ {
				for _, special := range []byte{'"', '\\', 0x00, 0x1F, 0xC3} {
					for at2 := -1; at2 < n; at2 += 3 {
						b := bytes.Repeat([]byte{fill}, n)
						if at2 >= 0 {
							b[at2] = '"'
						}
						if at >= 0 {
							b[at] = special
						}
						for from := 0; from <= min(n, 9); from++ {
							checkStringEnd(t, b, from)
						}
					}
				}
			}
		}
	}
}

// TestHasPrefix: HasPrefix agrees with bytes.HasPrefix for every length
// around the eight-byte words and a difference at every position.
func TestHasPrefix(t *testing.T) {
	const p = `{"type":"REASONING_MESSAGE_CONTENT","messageId":"`
	for n := 0; n <= len(p); n++ {
		prefix := p[:n]
		for _, data := range [][]byte{[]byte(p), []byte(p + `m","delta":"x"}`), []byte(p[:max(n-1, 0)])} {
			if got, want := HasPrefix(data, prefix), bytes.HasPrefix(data, []byte(prefix)); got != want {
				t.Fatalf("HasPrefix(%q, %q) = %v, want %v", data, prefix, got, want)
			}
		}
		for at := range n {
			data := []byte(p)
			data[at] ^= 0x01
			if HasPrefix(data, prefix) {
				t.Fatalf("HasPrefix(%q, %q) = true", data, prefix)
			}
		}
	}
}
