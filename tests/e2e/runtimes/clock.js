// SPDX-License-Identifier: MIT
// Node's process.hrtime.bigint (libuv reads CLOCK_MONOTONIC through libc), for the e2e test and the benchmark.
// usage: node clock.js check N        N reads, a line "calls= backwards=", then one reading per byte
//                                     read from stdin
//        node clock.js bench N RUNS   ns per call over N calls, the median of RUNS runs (the
//                                     process's CPU time: Node has no thread CPU clock), as
//                                     "ns_per_call="
'use strict';
const fs = require('fs');

function check(n) {
  const now = process.hrtime.bigint;
  let prev = 0n, backwards = 0;
  for (let i = 0; i < n; i++) {
    const v = now();
    if (v < prev) backwards++;
    prev = v;
  }
  fs.writeSync(1, `calls=${n} backwards=${backwards}\n`);
  const byte = Buffer.alloc(1);
  for (;;) {
    let got;
    try {
      got = fs.readSync(0, byte, 0, 1, null);
    } catch (e) {
      if (e.code === 'EAGAIN') continue;
      if (e.code === 'EOF') break;
      throw e;
    }
    if (got === 0) break;
    fs.writeSync(1, `${now()}\n`);
  }
}

function bench(n, runs) {
  const now = process.hrtime.bigint;
  const perCall = [];
  let last = 0n;
  // Runs before the counted ones let the JIT compile the loop.
  for (let r = -3; r < runs; r++) {
    const t0 = process.cpuUsage();
    for (let i = 0; i < n; i++) last = now();
    const t = process.cpuUsage(t0);
    if (r >= 0) perCall.push(((t.user + t.system) * 1000) / n);
  }
  perCall.sort((a, b) => a - b);
  console.log(`ns_per_call=${perCall[runs >> 1].toFixed(2)}` + (last < 0n ? ' ' : ''));
}

if (process.argv[2] === 'check') check(Number(process.argv[3]));
else bench(Number(process.argv[3]), Number(process.argv[4]));
