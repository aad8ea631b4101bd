// How file: URLs are read by the loader (loader.js). Browsers have none; the
// package's node entries (entries/*.node.js, through agui.node.js) set
// node:fs's readFile, so that nothing Node-only is in a browser bundle. A
// module of its own so that setting it loads nothing else: the drop-in's
// entry imports the loader only when its reducer factory starts loading.

let reader = null;

/** Sets the function that reads file: URLs (agui.node.js). */
export function setFileReader(read) { reader = read; }

/** The function that reads file: URLs, or null (a browser). */
export function fileReader() { return reader; }
