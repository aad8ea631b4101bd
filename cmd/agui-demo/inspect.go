package main

import "net/http"

// inspectPage redirects /inspect to the inspector page of the web folder
// (web/demo/inspect.html): a user drops a recording there and scrubs it.
func inspectPage() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/demo/inspect.html", http.StatusFound)
	})
}
