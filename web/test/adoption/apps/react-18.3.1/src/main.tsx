// The app renders README.md's "React" example (src/Chat.tsx, written from
// the README by the adoption test) under StrictMode.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Chat } from './Chat';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Chat />
  </StrictMode>,
);
