// The one line an app changes: HttpAgent from the package instead of
// @ag-ui/client. The page takes the official one with ?agent=official, so
// the test can compare what CopilotKit renders with each.
import { HttpAgent as OfficialHttpAgent } from '@ag-ui/client';
import { HttpAgent } from '@agui-reducer/web/ag-ui';

export const which = new URLSearchParams(location.search).get('agent') === 'official' ? 'official' : 'reducer';

export const agent = which === 'official'
  ? new OfficialHttpAgent({ url: '/agent' })
  : new HttpAgent({ url: '/agent' });
