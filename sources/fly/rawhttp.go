package fly

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
)

const maxResponseBody = 16 << 20

// Events lists a machine's recent events (newest first). fly-go v0.5.0 has
// no wrapper, so this uses its NewRequest (base URL, /v1, Authorization).
func (c *Client) Events(ctx context.Context, app, id string) ([]*MachineEvent, error) {
	k, err := machineCall("list events of machine", app, id)
	if err != nil {
		return nil, err
	}
	ctx, cancel := withDeadline(ctx, defaultDeadline)
	defer cancel()
	path := fmt.Sprintf("/apps/%s/machines/%s/events", url.PathEscape(app), url.PathEscape(id))
	req, err := c.flaps.NewRequest(ctx, http.MethodGet, path, nil, nil)
	if err != nil {
		return nil, c.fail(ctx, k, err)
	}
	req.Header.Set("User-Agent", c.cfg.UserAgent)
	var evs []*MachineEvent
	if err := c.doJSON(c.flapsHC, req, &evs); err != nil {
		return nil, c.fail(ctx, k, err)
	}
	return evs, nil
}

// doJSON sends req and decodes a 2xx JSON body into out; other statuses
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
