// The package's entry under Node (the "node" export condition): agui.js,
// plus reading file: URLs with node:fs, which a browser bundle must not
// contain. loadReducer() with no argument reads dist/agui.wasm next to it.

import { readFile } from 'node:fs/promises';
import { setFileReader } from './src/loader.js';

setFileReader((url) => readFile(url));

export * from './agui.js';
