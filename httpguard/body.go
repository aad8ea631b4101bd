package httpguard

import (
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"
)

// ReadJSON reads a POST's body: it must be Content-Type application/json
// (else 415 unsupported_media_type) and at most max bytes (else 413
// too_large). On a refusal it has answered, and returns false.
func ReadJSON(w http.ResponseWriter, r *http.Request, max int64, what string) ([]byte, bool) {
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		Error(w, http.StatusUnsupportedMediaType, "unsupported_media_type", "send "+what+" as Content-Type: application/json")
		return nil, false
	}
	tooLarge := func() {
		Error(w, http.StatusRequestEntityTooLarge, "too_large", "the body is larger than "+strconv.FormatInt(max, 10)+" bytes (-max-body)")
	}
	if r.ContentLength > max {
		tooLarge()
		return nil, false
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, max))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			tooLarge()
		} else {
			Error(w, http.StatusBadRequest, "bad_request", "reading the body: "+err.Error())
		}
		return nil, false
	}
	return body, true
}
