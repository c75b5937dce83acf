// Bundle the front end: js/src/index.ts -> gridwidgets/static/widget.js (ESM)
// and its imported CSS -> gridwidgets/static/widget.css.
//   node js/build.mjs           one minified build
//   node js/build.mjs --watch   rebuild on change (unminified, with sourcemaps)
import * as esbuild from "esbuild";
import { fileURLToPath } from "node:url";
import path from "node:path";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const watch = process.argv.includes("--watch");

const options = {
  absWorkingDir: root,
  entryPoints: ["js/src/index.ts"],
  outfile: "gridwidgets/static/widget.js", // the CSS lands next to it as widget.css
  bundle: true,
  format: "esm",
  target: ["es2020", "chrome100", "firefox100", "safari15"],
  minify: !watch,
  sourcemap: watch ? "inline" : false,
  legalComments: "none",
  logLevel: "info",
};

if (watch) {
  const ctx = await esbuild.context(options);
  await ctx.watch();
  console.log("watching js/src for changes ...");
} else {
  await esbuild.build(options);
}
