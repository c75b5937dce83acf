// Bundle the front end: js/src/index.ts -> gridwidgets/static/widget.js (ESM)
// and its imported CSS -> gridwidgets/static/widget.css.
//   node js/build.mjs           one minified build
//   node js/build.mjs --watch   rebuild on change (unminified, with sourcemaps)
import * as esbuild from "esbuild";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const watch = process.argv.includes("--watch");

// The one palette (gridwidgets/core/palette.json, also read by Python's SVG
// pictures) becomes CSS custom properties: --gw-colour-<name> and
// --gw-role-<role> for the light theme and for dark themes (JupyterLab, VS Code,
// .gw-dark), and the players' default colours --gw-player-<n>. The view sets
// each game's players' colours from the palette names Python sends.
const DARK = [
  'body[data-jp-theme-light="false"] .gw-root',
  "body.vscode-dark .gw-root",
  "body.vscode-high-contrast .gw-root",
  ".gw-root.gw-dark",
];

export function paletteCss(palette) {
  const block = (theme) => [
    ...Object.entries(palette.colours).map(([name, v]) => `  --gw-colour-${name}: ${v[theme]};`),
    ...Object.entries(palette.roles).map(([name, v]) => `  --gw-role-${name}: ${v[theme]};`),
  ];
  const players = palette.players.map((name, p) => `  --gw-player-${p}: var(--gw-colour-${name});`);
  return [
    "/* Generated from gridwidgets/core/palette.json by js/build.mjs: do not edit. */",
    ".gw-root {", ...block("light"), ...players, "}",
    `${DARK.join(",\n")} {`, ...block("dark"), "}",
    "",
  ].join("\n");
}

function writePalette() {
  const palette = JSON.parse(readFileSync(path.join(root, "gridwidgets/core/palette.json"), "utf8"));
  mkdirSync(path.join(root, "js/src/generated"), { recursive: true });
  writeFileSync(path.join(root, "js/src/generated/palette.css"), paletteCss(palette));
}

writePalette();

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
