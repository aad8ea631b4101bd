import { Chat } from './Chat.tsx'
import { Renders } from './Renders.tsx'

function App() {
  return location.hash === '#renders' ? <Renders /> : <Chat />
}

export default App
