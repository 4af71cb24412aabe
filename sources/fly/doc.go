// Package fly is flywake's only way to reach a Fly platform: the real Fly API
// or the embedded simulator on 127.0.0.1. Both go through the same code path
// (fly-go v0.5.0 on top of a transport owned by this package); only the base
// URLs differ.
//
// The transport beneath fly-go does four things fly-go cannot be asked to do:
// it points requests at this client's base URL (fly-go only reads
// process-global settings), paces every attempt with token buckets matching
// Fly's documented rate limits, retries 408/429 with Retry-After, and keeps the
// live call statistics shown in the dashboard header. It also reads no
// more than 64 KB of an error answer, and redacts the token from every
// answer before and after fly-go decodes it (sources/sanitize).
package fly
