// docs/inspector.md, "API":
import { AguiInspector, Session, defineInspector, toRecording, parseRecording, toFixture, jsonPatch } from '@agui-reducer/web/inspector';
// (end of the page's code)

export const exported = [AguiInspector, Session, defineInspector, toRecording, parseRecording, toFixture, jsonPatch];
