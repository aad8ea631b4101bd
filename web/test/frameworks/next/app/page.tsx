import { ChatPage } from './ChatPage';

export default function Page() {
  return <ChatPage />;
}
