import { Chat } from './Chat.tsx'
import { Renders } from './Renders.tsx'

function App() {
  // ?worker: the same chat with the wasm in a Web Worker
  return location.hash === '#renders' ? <Renders /> : <Chat worker={new URLSearchParams(location.search).has('worker')} />
}

export default App
