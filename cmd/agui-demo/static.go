package main

import (
	"io"
	"io/fs"
	"mime"
	"net/http"
	"os"
	"path"
	"strconv"
	"strings"
)

// contentTypes are set explicitly: the system MIME tables vary, and a
// .wasm served as anything but application/wasm cannot be streamed into
// WebAssembly.instantiateStreaming.
var contentTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".mjs":  "text/javascript; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".json": "application/json",
	".wasm": "application/wasm",
	".svg":  "image/svg+xml",
	".png":  "image/png",
	".ts":   "text/plain; charset=utf-8",
	".md":   "text/plain; charset=utf-8",
}

// pagePolicy is the Content-Security-Policy of HTML pages: scripts only from
// this origin (plus compiling WebAssembly), no inline script. Agent text is
// never parsed as HTML anyway; this is the second line of defence. Any
// endpoint may be fetched, so the page can talk to a real agent.
const pagePolicy = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src *; " +
	"img-src 'self' data:; style-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"

// staticHandler serves dir: "/" is dir/index.html, or redirects to the demo
// page when dir has none but has demo/index.html (web/ itself), a directory
// serves its index.html (there are no listings), and a file is sent
// precompressed (name.br, name.gz) when the client accepts it.
func staticHandler(dir, csp string) http.Handler {
	root := os.DirFS(dir)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/" && !isFile(root, "index.html") && isFile(root, "demo/index.html") {
			// web/ itself has no index: its page is the demo.
			target := "/demo/"
			if r.URL.RawQuery != "" { // ?endpoint=…&scenario=… are the page's
				target += "?" + r.URL.RawQuery
			}
			http.Redirect(w, r, target, http.StatusFound)
			return
		}
		name := strings.TrimPrefix(path.Clean(r.URL.Path), "/")
		if name == "" {
			name = "."
		}
		if !fs.ValidPath(name) || hiddenPath(name) {
			http.NotFound(w, r)
			return
		}
		st, err := fs.Stat(root, name)
		if err != nil {
			http.NotFound(w, r)
			return
		}
		if st.IsDir() {
			if !strings.HasSuffix(r.URL.Path, "/") {
				target := r.URL.Path + "/"
				if r.URL.RawQuery != "" {
					target += "?" + r.URL.RawQuery
				}
				http.Redirect(w, r, target, http.StatusMovedPermanently)
				return
			}
			name = path.Join(name, "index.html")
			if st, err = fs.Stat(root, name); err != nil || st.IsDir() {
				http.NotFound(w, r)
				return
			}
		}

		h := w.Header()
		ext := path.Ext(name)
		ctype := contentTypes[ext]
		if ctype == "" {
			ctype = mime.TypeByExtension(ext)
		}
		if ctype == "" {
			ctype = "application/octet-stream"
		}
		h.Set("Content-Type", ctype)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Cache-Control", "no-cache") // a rebuilt module is picked up on reload
		h.Set("Vary", "Accept-Encoding")
		if ext == ".html" && csp != "" {
			h.Set("Content-Security-Policy", csp)
		}

		serve := name
		for _, enc := range [...]struct{ token, ext string }{{"br", ".br"}, {"gzip", ".gz"}} {
			if !accepts(r.Header.Get("Accept-Encoding"), enc.token) {
				continue
			}
			if cst, err := fs.Stat(root, name+enc.ext); err == nil && !cst.IsDir() {
				serve, st = name+enc.ext, cst
				h.Set("Content-Encoding", enc.token)
				break
			}
		}
		f, err := root.Open(serve)
		if err != nil {
			http.NotFound(w, r)
			return
		}
		defer f.Close()
		if h.Get("Content-Encoding") != "" {
			// A range of the compressed bytes is not what a client means.
			r.Header.Del("Range")
		}
		rs, ok := f.(io.ReadSeeker)
		if !ok {
			http.Error(w, "not seekable", http.StatusInternalServerError)
			return
		}
		http.ServeContent(w, r, name, st.ModTime(), rs)
	})
}

func isFile(root fs.FS, name string) bool {
	st, err := fs.Stat(root, name)
	return err == nil && !st.IsDir()
}

// hiddenPath rejects dot files and installed packages: the server shows the
// page, not the working tree.
func hiddenPath(name string) bool {
	for _, seg := range strings.Split(name, "/") {
		if (seg != "." && strings.HasPrefix(seg, ".")) || seg == "node_modules" {
			return true
		}
	}
	return false
}

// accepts reports whether an Accept-Encoding header allows the coding
// (q=0 refuses it; "*" allows what is not named).
func accepts(header, coding string) bool {
	star := false
	for _, part := range strings.Split(header, ",") {
		tok, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		tok = strings.ToLower(strings.TrimSpace(tok))
		q := 1.0
		for _, p := range strings.Split(params, ";") {
			if k, v, ok := strings.Cut(strings.TrimSpace(p), "="); ok && strings.EqualFold(k, "q") {
				if f, err := strconv.ParseFloat(v, 64); err == nil {
					q = f
				}
			}
		}
		if tok == coding {
			return q > 0
		}
		if tok == "*" {
			star = q > 0
		}
	}
	return star
}
