// Package toolschema validates a tool call's arguments against the tool's
// parameters JSON Schema, both once the arguments are complete and while
// they stream.
//
// # Keywords
//
// [Compile] implements the keywords tool schemas use, with draft 2020-12
// meaning: type (a name or a list; "nullable": true adds null, as OpenAPI
// writes it), properties, required, additionalProperties (a boolean or a
// schema), patternProperties, items, prefixItems, enum, const, minimum,
// maximum, exclusiveMinimum, exclusiveMaximum, multipleOf, minLength and
// maxLength (in code points), pattern, minItems, maxItems, uniqueItems,
// allOf, anyOf, oneOf, not, and $ref to a JSON Pointer into the same
// document ("#", "#/$defs/...", "#/definitions/..."). format is an
// annotation and judges nothing. Numbers compare exactly (as decimals,
// never through float64): 0.0075 is a multiple of 0.0001.
//
// Any other assertion or applicator of draft 2020-12 (minProperties,
// maxProperties, contains, propertyNames, if/then/else,
// unevaluatedProperties, a remote $ref, a pattern outside the supported
// subset, ...) is not checked: the schema lists it once in
// [Schema.Unchecked], and a value is never found invalid because of it —
// in a schema that has one, a match under not or a second match of a
// oneOf is not trusted. Other unknown keywords are annotations, as the
// specification says.
//
// Patterns are ECMA-262 regular expressions; this package matches the
// subset schemas write (literals, classes, \d \w \s, anchors, groups,
// alternation, quantifiers) with a small backtracking matcher of its own:
// package regexp would add about 100 KB (brotli) to the WebAssembly module.
// Lookaround, backreferences and \p{...} are not in the subset.
//
// The js/wasm build is the same code: the WebAssembly module matches
// patterns and compares numbers exactly, as the Go reducer does (the
// matcher costs it about 6 KB brotli, the exact decimals nothing
// measurable against the float64 comparison they replaced).
//
// # Streaming
//
// A [Stream] follows the edits of a [partialjson.Parser] (with
// Options.Ends) as the arguments arrive and checks each value as soon as
// it is complete: a number or literal when it ends, a string at its
// closing quote, an object or array at its closing bracket. A member that
// additionalProperties: false forbids is reported when its value starts.
// Everything a Stream reports no continuation of the text can repair, so
// a prefix that some continuation makes valid is never reported.
//
// The Stream keeps a stack of the open containers with the subschemas that
// apply to them, so an edit costs the work of its own value: a member's
// subschema is found by its key, a container's own keywords (required,
// minItems, maxItems, ...) are checked once when it closes. Only a value
// under anyOf, oneOf or not is checked as a whole, when it completes, since
// which branch holds is known only then. [Stream.OpenFree] tells a consumer
// that a string just started is valid at every prefix (only its type
// constrains it), so that it may show it while it streams.
//
// Once the whole value is known, [Schema.Validate] gives the final verdict;
// on a complete document the errors of a Stream and of Validate are the
// same set (but for a duplicated object key, where the Stream also judged
// the value that the later one replaced). A compiled Schema is only read:
// it may be shared.
package toolschema
