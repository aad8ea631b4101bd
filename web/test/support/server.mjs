// A local AG-UI endpoint for the run() tests (node and Chromium): it answers
// POST /agent?stream=NAME with that recorded stream as text/event-stream,
// written in several flushed chunks, and serves web/ statically. It only
// listens on 127.0.0.1.
import http from 'node:http';
import { readFile } from 'node:fs/promises';
import { join, normalize, extname, sep } from 'node:path';
import { stream, sseText, webDir } from './helpers.mjs';

const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.css': 'text/css',
};

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Starts the server on a free port; resolves to {url, requests, close}. */
export async function startServer() {
  const requests = [];
  const sockets = new Set();
  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url, 'http://127.0.0.1');
      if (req.method === 'POST') {
        let body = '';
        for await (const part of req) body += part;
        requests.push({ path: url.pathname, query: Object.fromEntries(url.searchParams), headers: req.headers, body });
        await agent(url, res);
        return;
      }
      if (url.pathname === '/favicon.ico') {
        res.writeHead(204);
        res.end();
        return;
      }
      await serveFile(url.pathname, res);
    } catch (err) {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(err));
    }
  });
  server.keepAliveTimeout = 30_000;
  server.on('connection', (s) => { sockets.add(s); s.on('close', () => sockets.delete(s)); });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(resolve);
    }),
  };
}

async function agent(url, res) {
  // One connection per run: no keep-alive reuse racing the server's idle close.
  res.setHeader('Connection', 'close');
  const status = Number(url.searchParams.get('status') ?? 200);
  if (status !== 200) {
    res.writeHead(status, { 'Content-Type': 'text/plain' });
    res.end('no agent here');
    return;
  }
  const { lines } = stream(url.searchParams.get('stream') ?? '01_text_basic.jsonl');
  const mode = url.searchParams.get('mode') ?? 'full';
  const sent = mode === 'full' ? lines : lines.slice(0, Math.ceil(lines.length / 2));
  const bytes = Buffer.from(sseText(sent));
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
  const chunks = Number(url.searchParams.get('chunks') ?? 5);
  const size = Math.ceil(bytes.length / chunks);
  for (let i = 0; i < bytes.length; i += size) {
    res.write(bytes.subarray(i, i + size)); // arbitrary cuts: inside lines and UTF-8 sequences
    await sleep(5);
  }
  if (mode === 'hang') {
    await new Promise((resolve) => res.on('close', resolve)); // until the client aborts
    return;
  }
  res.end();
}

async function serveFile(pathname, res) {
  const file = normalize(join(webDir, decodeURIComponent(pathname)));
  if (!file.startsWith(webDir.endsWith(sep) ? webDir : webDir + sep)) {
    res.writeHead(403);
    res.end();
    return;
  }
  let data;
  try {
    data = await readFile(file);
  } catch {
    res.writeHead(404);
    res.end('not found');
    return;
  }
  res.writeHead(200, { 'Content-Type': types[extname(file)] ?? 'application/octet-stream', 'Cache-Control': 'no-store' });
  res.end(data);
}
