// Package jsonpatch applies RFC 6902 JSON Patches to jsontree documents
// with the observable behaviour of fast-json-patch 3.1.1's
// applyPatch(doc, ops, validate=true, mutate=false), which is how the
// official AG-UI JavaScript client applies STATE_DELTA events.
//
// # Model
//
// [Decode] turns a parsed patch into [Op] values; [Apply] applies them.
// Apply is all-or-nothing like its JavaScript counterpart, but instead of
// cloning the document first (which costs the document's size on every
// event) it changes the document in place and keeps an undo journal: each
// mutation records its inverse, and when an operation fails the journal is
// replayed backwards, restoring the document exactly, object key order
// included. A patch therefore costs time proportional to the paths and
// values it touches.
//
// Key order follows JavaScript: replacing a member keeps its position, a
// new member is appended, and removing then re-adding a member moves it to
// the end.
//
// An optional [Recorder] receives every effective change in a normalized
// form (add, replace or remove at a concrete path, with the value's JSON as
// it was at that moment), from which a consumer can mirror the document
// without re-encoding it.
//
// # fast-json-patch rules reproduced
//
// Validation checks, per operation and in this order: the operation is an
// object, "op" is known, "path" is a string that is empty or starts with
// "/", move and copy have a string "from", add, replace and test have a
// "value" (null counts). Then the path is walked: at the first token that
// does not exist (or at the last, if all exist) add requires that at most
// the last token be missing (else OPERATION_PATH_CANNOT_ADD), replace and
// remove require the whole path to exist (else OPERATION_PATH_UNRESOLVABLE),
// and move and copy require "from" to exist (else
// OPERATION_FROM_UNRESOLVABLE). Walking through a missing member or a scalar
// is OPERATION_PATH_UNRESOLVABLE. Tokens "__proto__", and "prototype" after
// "constructor", fail with OPERATION_PATH_BANNED.
//
// Array tokens: "-" means the length; otherwise the token must be ASCII
// digits (the empty token counts, as 0) or the operation fails with
// OPERATION_PATH_ILLEGAL_ARRAY_INDEX, and leading zeros are ignored. But
// whether an element exists is decided on the raw token, as arr["01"] is
// undefined in JavaScript: so replace /a/01 is unresolvable while add /a/01
// inserts at 1 and test /a/01 compares element 1; test and the destination
// of move and copy may even pass through /a/01/x. add beyond the length is
// OPERATION_VALUE_OUT_OF_BOUNDS, but the destination of move and copy is
// not bounds-checked by fast-json-patch (its internal add is unvalidated and
// splice clamps), so such a value is appended. A move whose removal leaves
// an array where its destination expected an object, under a non-index
// token, sets a JavaScript property that JSON cannot show: the value is
// dropped.
//
// On the root path "": add and replace set the document, remove sets it to
// null, move and copy make the value at "from" the document, test compares
// the whole document. Documents may be any JSON value.
//
// Where fast-json-patch writes a member onto a scalar (a move whose
// destination parent became a string or number), the ES module build that
// browser bundles load runs in strict mode and throws, so Apply fails;
// Node's require loads a sloppy-mode CommonJS build that silently ignores
// the write instead.
//
// These rules were checked against fast-json-patch 3.1.1 itself (see
// TestFastJSONPatch) and against github.com/evanphx/json-patch/v5 (see
// TestDifferentialV5, which lists where v5 differs from fast-json-patch).
//
// # Deliberate differences from fast-json-patch
//
// These concern inputs no correct producer sends; where JavaScript would
// behave absurdly, Apply fails cleanly instead:
//
//   - Decode validates all operations before any is applied (see Decode).
//   - "op" must be one of the six names. fast-json-patch also accepts its
//     private "_get", names inherited by plain objects ("toString",
//     "constructor", …) and non-strings that stringify to a valid name.
//   - Only a document's own members exist. fast-json-patch sees inherited
//     JavaScript properties too (an object's "toString", an array's
//     "length"), which lets replace/remove/test/move/copy act on them.
//   - Operations below the root of a scalar or null document fail with
//     OPERATION_PATH_UNRESOLVABLE; JavaScript lets remove succeed on 0, ""
//     and false, lets test read a string's characters and length, and
//     reports other codes (TEST_OPERATION_FAILED, a TypeError, …).
//   - Array indices above 2³¹-1 are out of range. JavaScript's ~~ wraps
//     them (even to negative offsets that splice counts from the end).
//   - A "from" that is not empty and does not start with "/" is
//     OPERATION_FROM_UNRESOLVABLE; fast-json-patch skips that check and
//     then removes the member named "undefined" or throws.
//   - A root move or copy whose "from" does not exist fails with
//     OPERATION_FROM_UNRESOLVABLE; fast-json-patch sets the document to
//     undefined or throws a TypeError.
//   - A move from "" to a non-root path fails with
//     OPERATION_PATH_UNRESOLVABLE; fast-json-patch makes the document
//     contain itself.
//   - Where fast-json-patch throws a TypeError instead of a JsonPatchError
//     (a move whose destination parent vanished with the removal, as when
//     moving a value into its own child) the code is
//     OPERATION_PATH_UNRESOLVABLE, and banned paths get
//     OPERATION_PATH_BANNED.
//   - Numbers are kept as text (see package jsontree), so a number JSON
//     cannot represent as a float64 is not rounded as JSON.parse would.
//
// Apply never panics on any document or patch and allocates only for the
// values it inserts, the journal, and, when recording, the changes.
package jsonpatch
