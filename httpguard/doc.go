// Package httpguard holds the HTTP defences shared by package relay and
// cmd/agui-demo: servers that run next to a browser, where any page the
// browser opens can send them requests.
//
//   - Hosts: the Host allow-list against DNS rebinding. A page of
//     attacker.example whose name is made to resolve to 127.0.0.1 reaches
//     the server as same-origin, but its requests carry
//     "Host: attacker.example". Loopback names and IP literals are always
//     allowed (a rebinding attack needs a name); more names are listed.
//   - Origins: CORS only for the origins configured (a canonical
//     scheme://host[:port], or "*"), and SameOrigin, which tells a page of
//     the server's own origin or a non-browser client (no Origin, no
//     cross-site Sec-Fetch-Site) from another site's page.
//   - Guard: both as one handler, with preflights answered.
//   - ReadJSON: a POST's JSON body, its type checked and its size bounded.
//   - NewServer: an http.Server whose timeouts cut slow clients off but
//     not a stream (each frame's write has FrameWriteTimeout).
//   - Serve, ServeDrain: the commands' main loop until SIGINT or SIGTERM
//     (SIGHUP ignored); ServeDrain stops accepting, lets the handler end
//     its streams with their last words (DrainOptions.Drain), and closes
//     what is left at a timeout.
//
// A refusal is a JSON error, {"error": message, "code": code} (Error),
// with a stable code: host_not_allowed, cross_origin,
// unsupported_media_type, too_large, bad_request.
package httpguard
