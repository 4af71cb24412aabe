// Package edge fires a wake test's requests at an app's public hostname
// (https://<app>.fly.dev, or the demo edge on 127.0.0.1) the way users would
// reach it, and records each request precisely.
//
// One lesson drives the design: a test pinned with
// fly-force-instance-id measured a path no user takes (502 after 30 s),
// while 40 concurrent requests through the edge answered 40 × 200. So:
//
//   - every request opens its own HTTP/1.1 connection at send time (no
//     pre-dialing, no HTTP/2 multiplexing: the proxy must see N requests on N
//     connections, as it would from N users);
//   - all requests are prepared first and released together by a barrier, so
//     they reach the proxy at once and push past its soft limit;
//   - the forced-instance header is refused unless explicitly allowed.
package edge
