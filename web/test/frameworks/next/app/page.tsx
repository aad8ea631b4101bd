import { Chat } from './Chat';

export default function Page() {
  return <Chat />;
}
