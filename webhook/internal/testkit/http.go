package testkit

import (
	"errors"
	"io"
	"net/http"
)

// ReadBody reads resp's body to its end and closes it. It returns the
// read's error and the close's, either of which means the response did not
// arrive whole.
func ReadBody(resp *http.Response) ([]byte, error) {
	body, err := io.ReadAll(resp.Body)
	return body, errors.Join(err, resp.Body.Close())
}
