// ruff_wasm.mjs SETTINGS_JSON FILE...: lints FILEs with ruff's WebAssembly build
// (@astral-sh/ruff-wasm-nodejs, the npm package tools/bootstrap.sh installs), given ruff's
// settings as JSON (tools/check_ruff.py reads them from ruff.toml). Prints one line per
// diagnostic, `FILE:LINE:COL: CODE message`; exit 1 when there is any, 0 otherwise.
import { Workspace, PositionEncoding } from "@astral-sh/ruff-wasm-nodejs";
import fs from "fs";

const workspace = new Workspace(JSON.parse(process.argv[2]), PositionEncoding.Utf16);
let count = 0;
for (const file of process.argv.slice(3)) {
  for (const d of workspace.check(fs.readFileSync(file, "utf8"))) {
    count++;
    console.log(`${file}:${d.start_location.row}:${d.start_location.column}: ${d.code} ${d.message}`);
  }
}
process.exit(count ? 1 : 0);
