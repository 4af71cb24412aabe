package fly

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
)

const maxResponseBody = 16 << 20

// doJSON sends req (a call fly-go does not wrap: Prometheus) and decodes a 2xx JSON body into out; other statuses
// become *httpStatusError carrying the API's message.
func (c *Client) doJSON(hc *http.Client, req *http.Request, out any) error {
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBody))
	if err != nil {
		return err
	}
	if resp.StatusCode > 299 {
		return &httpStatusError{Status: resp.StatusCode, Text: apiMessage(body)}
	}
	if err := json.Unmarshal(body, out); err != nil {
		return fmt.Errorf("decoding the API's answer: %w", err)
	}
	return nil
}

// apiMessage extracts the message from an error body the way fly-go does:
// "message", else "error", else the raw (shortened) body.
func apiMessage(body []byte) string {
	var e struct {
		Error   string `json:"error"`
		Message string `json:"message"`
	}
	if json.Unmarshal(body, &e) == nil {
		if e.Message != "" {
			return e.Message
		}
		if e.Error != "" {
			return e.Error
		}
	}
	const maxLen = 300
	if len(body) > maxLen {
		body = body[:maxLen]
	}
	return string(body)
}
