// The benchmark pages' server (browser.mjs, agent.mjs): the repository's
// bench/ and web/ folders and the generated pages, on 127.0.0.1 only.

import http from 'node:http';
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join, normalize, extname, sep } from 'node:path';

const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.cjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
};

/** Serves /bench/ and /web/ of the repository root (and the pages, by path) on 127.0.0.1, cross-origin isolated. */
export async function startServer(root, pages = {}) {
  const server = http.createServer(async (req, res) => {
    const headers = {
      // Cross-origin isolation: high-resolution timers.
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Embedder-Policy': 'require-corp',
      'Cache-Control': 'no-store',
    };
    try {
      const path = decodeURIComponent(new URL(req.url, 'http://127.0.0.1').pathname);
      if (path === '/favicon.ico') {
        res.writeHead(204, headers);
        res.end();
        return;
      }
      if (Object.hasOwn(pages, path)) {
        res.writeHead(200, { ...headers, 'Content-Type': types[extname(path)] ?? types['.html'] });
        res.end(pages[path]);
        return;
      }
      const file = normalize(join(root, path));
      const allowed = [join(root, 'bench') + sep, join(root, 'web') + sep];
      if (!allowed.some((d) => file.startsWith(d)) || !existsSync(file)) {
        res.writeHead(404, headers);
        res.end('not found');
        return;
      }
      // A precompressed copy (make wasm writes agui.wasm.br and .gz) when the browser takes it.
      const accept = String(req.headers['accept-encoding'] ?? '');
      const enc = /\bbr\b/.test(accept) && existsSync(file + '.br') ? 'br' : /\bgzip\b/.test(accept) && existsSync(file + '.gz') ? 'gzip' : null;
      const body = await readFile(enc === 'br' ? file + '.br' : enc === 'gzip' ? file + '.gz' : file);
      res.writeHead(200, { ...headers, 'Content-Type': types[extname(file)] ?? 'application/octet-stream', ...(enc ? { 'Content-Encoding': enc, Vary: 'Accept-Encoding' } : {}) });
      res.end(body);
    } catch (err) {
      if (!res.headersSent) res.writeHead(500, headers);
      res.end(String(err));
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => { server.closeAllConnections?.(); server.close(r); }) };
}

