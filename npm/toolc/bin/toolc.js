#!/usr/bin/env node
// toolc's npm entry point: runs the binary of the platform package that npm
// installed from this package's optionalDependencies (one per OS and CPU,
// each declaring its os and cpu, so npm installs only the one that fits:
// esbuild's pattern). No download happens at install time, and no install
// script is needed.
"use strict";

const { spawnSync } = require("child_process");
const path = require("path");

const pkg = `@toolc-dev/toolc-${process.platform}-${process.arch}`;
const exe = process.platform === "win32" ? "toolc.exe" : "toolc";

let bin;
try {
  bin = require.resolve(`${pkg}/bin/${exe}`);
} catch {
  const { version } = require(path.join(__dirname, "..", "package.json"));
  process.stderr.write(
    `toolc: the package ${pkg} is not installed, and it holds toolc's binary for ${process.platform}/${process.arch}.\n` +
      `npm installs it with toolc from optionalDependencies; an install with --omit=optional (or --no-optional) leaves it out.\n` +
      `Install it: npm install ${pkg}@${version}` +
      (/^(linux|darwin|win32)-(x64|arm64)$/.test(`${process.platform}-${process.arch}`)
        ? "\n"
        : ` (there is none for this platform: use a release archive or build from source)\n`),
  );
  process.exit(1);
}

const r = spawnSync(bin, process.argv.slice(2), { stdio: "inherit" });
if (r.error) {
  process.stderr.write(`toolc: ${r.error.message}\n`);
  process.exit(1);
}
if (r.signal) {
  process.kill(process.pid, r.signal);
}
process.exit(r.status ?? 1);
