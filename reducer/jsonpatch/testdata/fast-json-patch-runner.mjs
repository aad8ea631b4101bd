// Applies test cases with fast-json-patch the way the AG-UI client does:
// applyPatch(doc, patch, validate=true, mutate=false).
//
// usage: node fast-json-patch-runner.mjs DIR CASES OUT
// DIR is an installed fast-json-patch package; its ES module build (the
// one browser bundlers load) is used. CASES is a JSON array of
// {doc, patch}; OUT receives a JSON array of {ok, doc} or {ok, code}.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [dir, casesFile, outFile] = process.argv.slice(2);
const j = await import(pathToFileURL(path.join(dir, "index.mjs")).href);
const cases = JSON.parse(fs.readFileSync(casesFile, "utf8"));
const out = cases.map(({ doc, patch }) => {
  try {
    const r = j.applyPatch(doc, patch, true, false).newDocument;
    let s;
    try {
      s = JSON.stringify(r);
    } catch {
      return { ok: true, doc: null };
    }
    return { ok: true, doc: s === undefined ? null : s };
  } catch (e) {
    return { ok: false, code: e.name };
  }
});
fs.writeFileSync(outFile, JSON.stringify(out));
