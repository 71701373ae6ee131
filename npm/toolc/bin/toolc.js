#!/usr/bin/env node
// toolc's npm entry point: runs the binary of the platform package that npm
// installed from this package's optionalDependencies (one per OS and CPU,
// each declaring its os and cpu, so npm installs only the one that fits:
// esbuild's pattern). No download happens at install time, and no install
// script is needed.
"use strict";

const { spawn } = require("child_process");
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

// toolc runs as a child that this process waits for: a signal sent to
// this process (Ctrl-C, a CI runner's SIGTERM on cancel, SIGHUP when the
// terminal goes) is passed on to toolc, which stops and writes nothing;
// this process then ends as toolc did: with its exit code, or by the same
// signal. The handlers are in place before toolc starts: a signal that
// came between the two would otherwise end this process alone, toolc
// running on. (Node delivers a handled signal after this script's
// synchronous part, when child is set.)
const forwarded = ["SIGINT", "SIGTERM", "SIGHUP"];
let child;
const forward = (signal) => {
  if (child.exitCode === null && child.signalCode === null) {
    child.kill(signal);
  }
};
for (const signal of forwarded) {
  process.on(signal, forward);
}
child = spawn(bin, process.argv.slice(2), { stdio: "inherit" });
child.on("error", (err) => {
  process.stderr.write(`toolc: ${err.message}\n`);
  process.exit(1);
});
child.on("exit", (code, signal) => {
  for (const s of forwarded) {
    process.removeListener(s, forward);
  }
  if (signal) {
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 1);
});
