// The inspector tests' server: the repository's files (web/, testdata/,
// reducer/testdata/) over http, and POST /agent?stream=<path> answering
// that .jsonl stream as text/event-stream in several flushed chunks, with
// an SSE id per frame. Listens on 127.0.0.1 only.
import http from 'node:http';
import { readFile } from 'node:fs/promises';
import { join, normalize, extname, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoDir = fileURLToPath(new URL('../../..', import.meta.url));

const types = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm', '.json': 'application/json', '.jsonl': 'application/x-ndjson', '.css': 'text/css',
};

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export function jsonlLines(text) {
  return text.split('\n').filter((l) => l.trim() !== '');
}

export async function startServer() {
  const sockets = new Set();
  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url, 'http://127.0.0.1');
      if (req.method === 'POST' && url.pathname === '/agent') {
        for await (const _ of req) { /* the RunAgentInput */ }
        const lines = jsonlLines(await readFile(join(repoDir, url.searchParams.get('stream')), 'utf8'));
        const bytes = Buffer.from(lines.map((l, i) => `id: ${i + 1}\ndata: ${l}\n\n`).join(''));
        res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'close' });
        const chunks = Number(url.searchParams.get('chunks') ?? 7);
        const size = Math.ceil(bytes.length / chunks);
        for (let i = 0; i < bytes.length; i += size) {
          res.write(bytes.subarray(i, i + size));
          await sleep(3);
        }
        res.end();
        return;
      }
      if (url.pathname === '/favicon.ico') { res.writeHead(204); res.end(); return; }
      const file = normalize(join(repoDir, decodeURIComponent(url.pathname)));
      if (!file.startsWith(repoDir.endsWith(sep) ? repoDir : repoDir + sep) || file.includes(`${sep}.git`)) { res.writeHead(403); res.end(); return; }
      let data;
      try { data = await readFile(file); } catch { res.writeHead(404); res.end('not found'); return; }
      res.writeHead(200, { 'Content-Type': types[extname(file)] ?? 'application/octet-stream', 'Cache-Control': 'no-store' });
      res.end(data);
    } catch (err) {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(err));
    }
  });
  server.on('connection', (s) => { sockets.add(s); s.on('close', () => sockets.delete(s)); });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () => new Promise((resolve) => { for (const s of sockets) s.destroy(); server.close(resolve); }),
  };
}
