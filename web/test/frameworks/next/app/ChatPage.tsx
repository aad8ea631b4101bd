'use client';
import { useEffect, useState } from 'react';
import { Chat } from './Chat';

// ?worker: the same chat with the wasm in a Web Worker. The page is
// prerendered, so the query is read after hydration; the chat is then made
// again in worker mode (data-worker tells the test when).
export function ChatPage() {
  const [worker, setWorker] = useState(false);
  useEffect(() => setWorker(new URLSearchParams(location.search).has('worker')), []);
  return (
    <div data-worker={worker}>
      <Chat key={String(worker)} worker={worker} />
    </div>
  );
}
