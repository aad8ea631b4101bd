// Node's way to the package's files (the "node" export condition's entries,
// entries/*.node.js, import this first): reading file: URLs with node:fs,
// which a browser bundle must not contain. loadReducer() with no argument
// then reads dist/agui.wasm next to the package.

import { readFile } from 'node:fs/promises';
import { setFileReader } from './file-reader.js';

setFileReader((url) => readFile(url));
